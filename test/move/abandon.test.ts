// Abandoning a move (lib/store/move/abandon.ts) against its commit (lib/store/workspaces.ts
// commitMovedWorkspace) and its own command's progress (lib/store/move/runs.ts): of a commit and an
// abandonment, one wins, and a run being abandoned is never continued. The CLI's --abandon, killed and
// run again, is in test/move/restore-kill.test.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { putItem, updateItem } from '#lib/store/calls.ts';
import * as keys from '#lib/store/keys.ts';
import { abandonMove } from '#lib/store/move/abandon.ts';
import { beginRun, MoveAbandoned, readRun, runKeyOf, saveProgress } from '#lib/store/move/runs.ts';
import { partitionItems } from '#lib/store/query.ts';
import { tableName } from '#lib/store/table.ts';
import { commitMovedWorkspace, getWorkspace } from '#lib/store/workspaces.ts';

/** A restore's run begun, and two items of its workspace written, as a restore that stopped leaves them. */
async function unfinished(name: string) {
  const runKey = runKeyOf('restore', randomUUID(), name);
  const { run } = await beginRun({ runKey, command: 'restore', workspaceId: randomUUID(), name, checkpoint: { line: 1 } });
  for (const sk of ['ENT#a', 'NOTE#b']) await putItem({ TableName: tableName(), Item: { pk: keys.partition(run.workspaceId), sk, kind: 'test' } });
  return run;
}

const itemsOf = (ws: string) => partitionItems(ws, '');

const workspaceOf = (run: { workspaceId: string; name: string; startedAt: string }) => ({ id: run.workspaceId, name: run.name, createdAt: run.startedAt });

describe('abandoning a move', () => {
  it('deletes what the run wrote and the run itself; a second abandonment finds none', async () => {
    const run = await unfinished('Abandoned');
    expect(await abandonMove(run.runKey)).toEqual({ outcome: 'abandoned', workspaceId: run.workspaceId, name: 'Abandoned', deleted: 2 });
    expect(await itemsOf(run.workspaceId)).toEqual([]);
    expect(await readRun(run.runKey)).toBeUndefined();
    expect(await abandonMove(run.runKey)).toEqual({ outcome: 'none' });
    // The name begins again, into a new workspace.
    const again = await beginRun({ runKey: run.runKey, command: 'restore', workspaceId: randomUUID(), name: run.name, checkpoint: { line: 1 } });
    expect(again.resumed).toBe(false);
    expect(again.run.workspaceId).not.toBe(run.workspaceId);
  });

  it('a run whose workspace is committed is complete, even before the run says so: nothing is deleted', async () => {
    const run = await unfinished('Committed');
    await commitMovedWorkspace(workspaceOf(run), 0, run);
    expect(await abandonMove(run.runKey)).toEqual({ outcome: 'complete', workspaceId: run.workspaceId, name: 'Committed' });
    expect((await itemsOf(run.workspaceId)).map((i) => i.sk).sort()).toEqual(['ENT#a', 'NOTE#b', 'WORKSPACE']);
    expect(await readRun(run.runKey)).toMatchObject({ state: 'loading' });
  });

  it('a run being abandoned is neither committed nor continued nor begun again', async () => {
    const run = await unfinished('Half abandoned');
    // As an abandonment killed after its mark leaves the run.
    await updateItem({
      TableName: tableName(),
      Key: keys.moveRun(run.runKey),
      UpdateExpression: 'SET #s = :a',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':a': 'abandoning' },
    });
    await expect(commitMovedWorkspace(workspaceOf(run), 0, run)).rejects.toBeInstanceOf(MoveAbandoned);
    expect(await getWorkspace(run.workspaceId)).toBeUndefined();
    await expect(saveProgress(run, { checkpoint: { line: 2_001 } })).rejects.toThrow(
      'The restore into "Half abandoned" is being abandoned (--abandon): it does not continue. Run the same command with --abandon to finish abandoning it, then without to begin again.',
    );
    expect(await readRun(run.runKey)).toMatchObject({ state: 'abandoning', checkpoint: { line: 1 } });
    await expect(
      beginRun({ runKey: run.runKey, command: 'restore', workspaceId: randomUUID(), name: run.name, checkpoint: { line: 1 } }),
    ).rejects.toBeInstanceOf(MoveAbandoned);
    expect(await abandonMove(run.runKey)).toEqual({ outcome: 'abandoned', workspaceId: run.workspaceId, name: 'Half abandoned', deleted: 2 });
  });
});
