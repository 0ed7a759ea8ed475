// admin restore as the operator runs it (the CLI in a child process), SIGKILLed twice at random points
// of its loading (printed; RESTORE_KILL_AT replays them) and run again until it completes,
// gives the workspace one uninterrupted restore of the same file gives: every item of it equal
// attribute by attribute, ids mapped (the records, their index entries, the rating items and the
// scores: everything the API reads them from), the same scores compared, nothing for verify to
// repair. Until the run completes nothing can reach the workspace: its workspace item is written
// last (local/move/commit.ts), and no credential of it can be issued without it.
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidV5 } from '#lib/domain/uuid-v5.ts';
import { queryPage } from '#lib/store/calls.ts';
import * as keys from '#lib/store/keys.ts';
import { getMemberByEmail } from '#lib/store/members.ts';
import { readRun, runKeyOf } from '#lib/store/move/runs.ts';
import { queryAll, type StoredItem } from '#lib/store/query.ts';
import { tableName } from '#lib/store/table.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { runAndKill, runCli } from './kill.ts';
import { seedWorkspace, type Seeded } from './seed.ts';
import { identityCommands } from '../../local/admin/identity.ts';
import { exportWorkspace } from '../../local/move/export.ts';
import { abandonRestore, restoreWorkspace } from '../../local/move/restore.ts';

/** Notes added to the file: light ones (no link) past line 2 000, restore's first checkpoint, then heavy ones (five links each). */
const LIGHT = 1_950;
const HEAVY = 400;
const NOTES = 60 + LIGHT + HEAVY;

let source: Seeded;
let exportId: string;
/** Every record id of the file: what a restore maps. */
let sourceIds: Set<string>;
const file = join(tmpdir(), `move-restore-kill-${process.pid}.jsonl.gz`);

/**
 * The export of a seeded workspace with LIGHT + HEAVY notes added in its format after its own (the
 * heavy ones anonymous, so each link adds 1 to its entity's score and its ancestors': the entity
 * records' scores are raised by as much) and the end record counting them. Cheaper than writing as
 * many notes into the source, and restore reads it as any export.
 */
function withNotes(lines: string[]): string[] {
  const records = lines.map((l) => JSON.parse(l) as Record<string, any>);
  const entities = records.filter((r) => r.kind === 'entity');
  const hierarchy = entities.filter((e) => e.score !== undefined);
  const customers = entities.filter((e) => e.type === 'user' || e.type === 'company');
  const byId = new Map(hierarchy.map((e) => [e.id as string, e]));
  const t0 = Date.parse('2025-06-01T00:00:00Z');
  const added = Array.from({ length: LIGHT + HEAVY }, (_, i) => {
    const at = new Date(t0 + i * 1000).toISOString();
    const heavy = i >= LIGHT;
    const customer = customers[i % customers.length]!;
    const links = heavy ? [0, 1, 2, 3, 4].map((k) => hierarchy[(i + k * 3) % hierarchy.length]!) : [];
    for (const target of links) for (let e: Record<string, any> | undefined = target; e; e = byId.get(e.parent?.id)) e.score++;
    return {
      kind: 'note',
      id: randomUUID(),
      type: 'textNote',
      fields: { name: `Added ${i}`, content: `<p>Added ${i}</p>` },
      ...(heavy ? {} : { customer: { id: customer.id, type: customer.type } }),
      createdAt: at,
      updatedAt: at,
      links: links.map((e) => ({ entityId: e.id, entityType: e.type, importance: 'important', ratedAt: at })),
    };
  });
  const end = records.pop()!;
  end.counts.note += added.length;
  const after = records.findLastIndex((r) => r.kind === 'note') + 1;
  return [...records.slice(0, after), ...added, ...records.slice(after), end].map((r) => JSON.stringify(r));
}

beforeAll(async () => {
  source = await seedWorkspace({ notes: 60, name: 'Restore kill source' });
  exportId = (await exportWorkspace(source.ws, file)).exportId;
  const lines = withNotes(
    gunzipSync(await readFile(file))
      .toString('utf8')
      .trim()
      .split('\n'),
  );
  await writeFile(file, gzipSync(lines.join('\n') + '\n'));
  sourceIds = new Set(lines.map((l) => (JSON.parse(l) as { id?: string }).id).filter((id) => id !== undefined));
}, 120_000);

afterAll(async () => {
  await rm(file, { force: true });
});

/** How many items the workspace's partition holds: how far a restore into it got. */
async function itemsIn(ws: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await queryPage({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.partition(ws) },
      Select: 'COUNT',
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

/**
 * Every item of restored workspace `ws` by key, its ids as the source's, without what differs from
 * restore to restore by design: the run's quiet mark, the webhook's new sealed signing secret, and the
 * workspace item's name and creation time (the run's start).
 */
async function itemsAsSource(ws: string): Promise<Record<string, StoredItem>> {
  const back = new Map([...sourceIds].map((id) => [uuidV5(ws, `export:${source.ws}\n${id}`), id]));
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) } });
  const text = JSON.stringify(items)
    .replaceAll(ws, 'WS')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => back.get(id) ?? id);
  const out: Record<string, StoredItem> = {};
  for (const { quietWrite, sealedSigningSecret, ...item } of JSON.parse(text) as StoredItem[]) {
    expect(quietWrite ?? 'restore:', `${item.sk as string}`).toMatch(/^restore:/);
    if (item.kind === 'webhook') expect(sealedSigningSecret).toEqual(expect.any(String));
    if (item.kind === 'workspace') [item.name, item.createdAt] = ['', ''];
    out[`${item.pk as string}|${item.sk as string}`] = item;
  }
  return out;
}

const scoresOf = (items: Record<string, StoredItem>) =>
  Object.fromEntries(Object.values(items).flatMap((it) => (it.kind === 'entity' && it.total !== undefined ? [[it.id as string, it.total]] : [])));

describe('restore killed and run again', () => {
  it('killed twice by SIGKILL at random points of its loading and run again, restore gives what one uninterrupted restore gives', async () => {
    const reference = await restoreWorkspace(file, { name: 'Restored once' });
    expect(reference.scores).toEqual({ checked: 16, mismatches: 0 });
    const total = await itemsIn(reference.id);

    // Kill points as items written, fractions of the finished restore's `total` (the loading writes all
    // but the workspace item and the rating items): one in the light notes, before the first checkpoint,
    // so the run after it starts again from the first line; one in the heavy notes, after that checkpoint.
    const at = process.env.RESTORE_KILL_AT?.split(',').map(Number) ?? [0.05 + Math.random() * 0.35, 0.55 + Math.random() * 0.35];
    const points = at.map((f) => Math.round(f * total)) as [number, number];
    console.log(`restore kill test: kills at ${points.join(' and ')} items of ${total}; RESTORE_KILL_AT=${at.join(',')} replays them`);
    const name = 'Restored with interruptions';
    const args = ['restore', '--in', file, '--name', name];
    const runKey = runKeyOf('restore', exportId, name);
    const a = await runAndKill(args, runKey, async (r) => r.state === 'loading' && (await itemsIn(r.workspaceId)) >= points[0], 0);
    const b = await runAndKill(args, runKey, async (r) => r.state === 'loading' && r.checkpoint.line > 1 && (await itemsIn(r.workspaceId)) >= points[1], 0);
    expect([a.killed, b.killed, a.run.signal, b.run.signal], `${a.run.stderr}\n${b.run.code} ${b.run.stderr}`).toEqual([true, true, 'SIGKILL', 'SIGKILL']);

    const before = await readRun<{ line: number }>(runKey);
    expect(before).toMatchObject({ state: 'loading', checkpoint: { line: 2_001 } });
    const ws = before!.workspaceId;
    // Its records are written (the admin among them), its workspace item is not: no credential of it can be issued.
    expect(await itemsIn(ws)).toBeGreaterThanOrEqual(points[1]);
    expect(await getMemberByEmail(ws, source.admin.email)).toMatchObject({ role: 'admin', active: true });
    expect(await getWorkspace(ws)).toBeUndefined();
    const tokenIssue = identityCommands.find((c) => c.name === 'token issue')!;
    await expect(tokenIssue.run({ workspace: ws, email: source.admin.email })).rejects.toThrow(`No workspace ${ws}`);

    const last = await runCli(args);
    expect(last.code, last.stderr).toBe(0);
    const resumed = JSON.parse(last.stdout) as typeof reference;
    expect(resumed).toMatchObject({ id: ws, name, resumed: true, counts: reference.counts, scores: reference.scores });
    expect(resumed.counts.note).toBe(NOTES);
    expect(await getWorkspace(ws)).toMatchObject({ name, createdAt: before!.startedAt });

    const got = await itemsAsSource(ws);
    const want = await itemsAsSource(reference.id);
    expect(got).toEqual(want);
    // What the comparison covers, so an empty read cannot pass it.
    expect(Object.keys(got).length).toBe(total);
    expect(Object.values(got).filter((it) => it.kind === 'note').length).toBe(NOTES);
    expect(scoresOf(got)).toEqual(scoresOf(want));
    expect(Object.values(scoresOf(got)).filter((s) => Number(s) > 0).length).toBe(16);
    expect(await verifyWorkspace(ws, false)).toMatchObject({ mismatches: 0 });
  }, 180_000);
});

describe('an unfinished restore abandoned', () => {
  it('--abandon deletes what a killed restore wrote and forgets its run; killed itself, it continues, and the restore is refused until it ends', async () => {
    const name = 'Restore abandoned';
    const args = ['restore', '--in', file, '--name', name];
    const runKey = runKeyOf('restore', exportId, name);
    const a = await runAndKill(args, runKey, async (r) => r.state === 'loading' && (await itemsIn(r.workspaceId)) >= 1_000, 0);
    expect([a.killed, a.run.signal], a.run.stderr).toEqual([true, 'SIGKILL']);
    const ws = (await readRun(runKey))!.workspaceId;
    expect(await itemsIn(ws)).toBeGreaterThanOrEqual(1_000);

    // The abandonment killed once it has begun: the restore no longer continues, and writes nothing.
    const b = await runAndKill([...args, '--abandon'], runKey, (r) => r.state === 'abandoning', 0);
    expect([b.killed, b.run.signal], b.run.stderr).toEqual([true, 'SIGKILL']);
    const left = await itemsIn(ws);
    await expect(restoreWorkspace(file, { name })).rejects.toThrow(
      `The restore into "${name}" is being abandoned (--abandon): it does not continue. Run the same command with --abandon to finish abandoning it, then without to begin again.`,
    );
    expect(await itemsIn(ws)).toBe(left);

    const done = await runCli([...args, '--abandon']);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({ id: ws, name, abandoned: true, deleted: left });
    expect(await itemsIn(ws)).toBe(0);
    expect(await readRun(runKey)).toBeUndefined();
    await expect(abandonRestore(file, { name })).rejects.toThrow(
      `There is no unfinished restore of export ${exportId} as "${name}" to abandon: it was never begun, or it was abandoned already.`,
    );
  }, 180_000);
});
