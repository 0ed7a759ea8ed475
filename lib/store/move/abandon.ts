// Abandoning a move into a new workspace that did not complete (restore, `import productboard`): what
// it wrote is deleted and its run forgotten, so the name can be used again. The run is first marked
// abandoning in one transaction that also requires the workspace item to be absent, so no commit
// (lib/store/workspaces.ts commitMovedWorkspace) can follow it, and the move's own command no longer
// continues it (MoveAbandoned). Then every item of the workspace's partition is deleted, a page at a
// time, and the run item last: killed anywhere, the same abandonment continues where it stopped.
import { readRun, type RunState } from './runs.ts';
import { batchWriteAll } from '../batch.ts';
import { deleteItem, transactWrite } from '../calls.ts';
import { isCancellation } from '../errors.ts';
import * as keys from '../keys.ts';
import { partitionPages } from '../query.ts';
import { tableName } from '../table.ts';

/** Items read, and deleted, at a time. */
const PAGE = 1_000;

type Abandonment =
  /** No run has that key: never begun, or abandoned already. */
  | { outcome: 'none' }
  /** The run completed: its workspace is reachable and in use, and is not abandoned. */
  | { outcome: 'complete'; workspaceId: string; name: string }
  | { outcome: 'abandoned'; workspaceId: string; name: string; deleted: number };

/** Marks the run abandoning unless its workspace was committed; answers false when it was. */
async function markAbandoning(runKey: string, workspaceId: string): Promise<boolean> {
  const unfinished: RunState[] = ['loading', 'aggregating', 'abandoning'];
  try {
    await transactWrite({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.moveRun(runKey),
            UpdateExpression: 'SET #state = :abandoning',
            ConditionExpression: `attribute_exists(pk) AND #state IN (${unfinished.map((_, i) => `:s${i}`).join(', ')})`,
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':abandoning': 'abandoning' satisfies RunState, ...Object.fromEntries(unfinished.map((s, i) => [`:s${i}`, s])) },
          },
        },
        { ConditionCheck: { TableName: tableName(), Key: keys.workspace(workspaceId), ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    });
    return true;
  } catch (err) {
    if (isCancellation(err) && err.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed')) return false;
    throw err;
  }
}

/** Abandons the run of `runKey`, as the module comment says. */
export async function abandonMove(runKey: string): Promise<Abandonment> {
  const run = await readRun(runKey);
  if (!run) return { outcome: 'none' };
  const { workspaceId, name } = run;
  if (!(await markAbandoning(runKey, workspaceId))) {
    // The workspace was committed, or the run completed or vanished since it was read: read which.
    const now = await readRun(runKey);
    return now ? { outcome: 'complete', workspaceId, name } : { outcome: 'none' };
  }
  let deleted = 0;
  for await (const page of partitionPages(workspaceId, '', ['pk', 'sk'], PAGE)) {
    await batchWriteAll(
      page.map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })),
      4,
    );
    deleted += page.length;
  }
  await deleteItem({ TableName: tableName(), Key: keys.moveRun(runKey) });
  return { outcome: 'abandoned', workspaceId, name, deleted };
}
