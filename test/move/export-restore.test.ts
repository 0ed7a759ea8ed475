// admin export → admin restore: every record equal field by field (createdAt and updatedAt included),
// ids mapped as docs/export-format.md says, every score equal; the file gzip JSON lines, mode 0600,
// without secrets; webhooks restored paused; a truncated or altered file refused with nothing reachable.
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidV5 } from '#lib/domain/uuid-v5.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { mapIds, readWorkspace, recordIds, sortedLists, type WorkspaceRead } from './read-workspace.ts';
import { seedWorkspace, type Seeded } from './seed.ts';
import { exportWorkspace } from '../../local/move/export.ts';
import { restoreWorkspace } from '../../local/move/restore.ts';
import { startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let source: Seeded;
let sourceRead: WorkspaceRead;
const dir = tmpdir();
const file = join(dir, `move-export-${process.pid}.jsonl.gz`);
/** What the seed makes, by kind (tag values: the replaced one is gone; comments: two on every 17th note). */
const COUNTS = { team: 2, member: 3, customField: 4, tagValue: 4, entity: 34, relation: 5, note: 120, comment: 16, webhook: 1 };

beforeAll(async () => {
  app = await startApp();
  source = await seedWorkspace({ notes: 120 });
  sourceRead = await readWorkspace(app.baseUrl, source.token);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await rm(file, { force: true });
});

describe('export and restore', () => {
  it('the export is gzip-compressed JSON lines with mode 0600: a header, records grouped by kind, an end record counting them; no secret', async () => {
    const out = await exportWorkspace(source.ws, file);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      format: 'pm-score-api.workspace-export',
      version: 2,
      exportId: out.exportId,
      exportedAt: expect.any(String),
      workspace: { id: source.ws, name: 'Move source', createdAt: expect.any(String) },
    });
    const kinds = lines.slice(1, -1).map((l) => l.kind);
    const order = ['team', 'member', 'customField', 'tagValue', 'entity', 'relation', 'note', 'comment', 'webhook'];
    expect(kinds).toEqual([...kinds].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    expect(lines.at(-1)).toEqual({ kind: 'end', counts: COUNTS });
    // Tags as the workspace's values: the replaced one is not exported, the entities read its replacement.
    expect(
      lines
        .filter((l) => l.kind === 'tagValue')
        .map((l) => l.name)
        .sort(),
    ).toEqual(['beta', 'core', 'earliest', 'ux']);
    // A select option deleted since: the features that held it keep its id, which their field no longer lists.
    const size = lines.find((l) => l.kind === 'customField' && l.name === 'Size');
    const held = lines.filter((l) => l.kind === 'entity' && typeof l.fields[size.id] === 'string').map((l) => l.fields[size.id]);
    expect(held.filter((id) => !size.values.some((v: { id: string }) => v.id === id)).length).toBeGreaterThan(0);
    expect(out.counts).toEqual(lines.at(-1).counts);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('sealed');
    expect(text).not.toContain('hash');
    const webhook = lines.find((l) => l.kind === 'webhook');
    expect(Object.keys(webhook).sort()).toEqual(['createdAt', 'events', 'id', 'kind', 'name', 'status', 'url', 'version']);
  });

  it('restore: every record equal field by field, ids mapped as documented, every score equal; webhooks paused; verify finds nothing to repair', async () => {
    const restored = await restoreWorkspace(file, { name: 'Restored copy' });
    expect(restored).toMatchObject({ name: 'Restored copy', resumed: false, counts: COUNTS, scores: { checked: 16, mismatches: 0 } });
    expect(restored.admin.email).toBe(source.admin.email);
    const map = (id: string) => uuidV5(restored.id, `export:${source.ws}\n${id}`);
    const read = await readWorkspace(app.baseUrl, restored.token.token);
    const expected = mapIds(sourceRead, recordIds(sourceRead), map);
    for (const w of Object.values(expected.webhooks) as any[]) w.fields.status = 'paused';
    expect(sortedLists(read)).toEqual(sortedLists(expected));
    // What the comparison covers, so an empty read cannot pass it.
    expect([Object.keys(read.teams).length, read.tagValues.length, Object.values(read.comments).flat().length, Object.keys(read.entities).length]).toEqual([
      2, 4, 16, 34,
    ]);
    expect(Object.values(read.scores).some((s) => s > 0)).toBe(true);
    expect(await verifyWorkspace(restored.id, false)).toMatchObject({ mismatches: 0 });
  }, 120_000);

  it('a truncated file, or one whose end record does not match it, is refused and leaves no workspace anyone can reach', async () => {
    const lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .trim()
      .split('\n');
    const truncated = join(dir, `move-truncated-${process.pid}.jsonl.gz`);
    await writeFile(truncated, gzipSync(lines.slice(0, -1).join('\n') + '\n'));
    await expect(restoreWorkspace(truncated, { name: 'Truncated' })).rejects.toThrow(/no end record: it is truncated/);
    const altered = join(dir, `move-altered-${process.pid}.jsonl.gz`);
    await writeFile(altered, gzipSync([...lines.slice(0, 2), ...lines.slice(3)].join('\n') + '\n'));
    await expect(restoreWorkspace(altered, { name: 'Altered' })).rejects.toThrow(/the end record counts 2 team records, the file holds 1/);
    const bad = join(dir, `move-bad-${process.pid}.jsonl.gz`);
    const note = JSON.parse(lines.find((l) => l.includes('"kind":"note"'))!);
    note.links = [{ entityId: 'x', entityType: 'feature', importance: 'urgent', ratedAt: note.createdAt }];
    await writeFile(bad, gzipSync([lines[0], JSON.stringify(note), lines.at(-1)].join('\n') + '\n'));
    await expect(restoreWorkspace(bad, { name: 'Bad' })).rejects.toThrow(/line 2: links\.0\.importance: /);
    for (const f of [truncated, altered, bad]) await rm(f, { force: true });
    expect(await getWorkspace(uuidV5(source.ws, 'no such'))).toBeUndefined();
  }, 60_000);
});
