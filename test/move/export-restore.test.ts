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
    const lines = gunzipSync(await readFile(file)).toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ format: 'pm-score-api.workspace-export', version: 1, exportId: out.exportId, exportedAt: expect.any(String), workspace: { id: source.ws, name: 'Move source', createdAt: expect.any(String) } });
    const kinds = lines.slice(1, -1).map((l) => l.kind);
    expect(kinds).toEqual([...kinds].sort((a, b) => ['member', 'customField', 'entity', 'relation', 'note', 'webhook'].indexOf(a) - ['member', 'customField', 'entity', 'relation', 'note', 'webhook'].indexOf(b)));
    expect(lines.at(-1)).toEqual({ kind: 'end', counts: { member: 3, customField: 4, entity: 29, relation: 2, note: 120, webhook: 1 } });
    expect(out.counts).toEqual(lines.at(-1).counts);
    const text = JSON.stringify(lines);
    expect(text).not.toContain('sealed');
    expect(text).not.toContain('hash');
    const webhook = lines.find((l) => l.kind === 'webhook');
    expect(Object.keys(webhook).sort()).toEqual(['createdAt', 'events', 'id', 'kind', 'name', 'status', 'url', 'version']);
  });

  it('restore: every record equal field by field, ids mapped as documented, every score equal; webhooks paused; verify finds nothing to repair', async () => {
    const restored = await restoreWorkspace(file, { name: 'Restored copy' });
    expect(restored).toMatchObject({ name: 'Restored copy', resumed: false, counts: { member: 3, customField: 4, entity: 29, relation: 2, note: 120, webhook: 1 }, scores: { checked: 16, mismatches: 0 } });
    expect(restored.admin.email).toBe(source.admin.email);
    const map = (id: string) => uuidV5(restored.id, `export:${source.ws}\n${id}`);
    const read = await readWorkspace(app.baseUrl, restored.token.token);
    const expected = mapIds(sourceRead, recordIds(sourceRead), map);
    for (const w of Object.values(expected.webhooks) as any[]) w.fields.status = 'paused';
    expect(sortedLists(read)).toEqual(sortedLists(expected));
    expect(Object.values(read.scores).some((s) => s > 0)).toBe(true);
    expect(await verifyWorkspace(restored.id, false)).toMatchObject({ mismatches: 0 });
  }, 120_000);

  it('a truncated file, or one whose end record does not match it, is refused and leaves no workspace anyone can reach', async () => {
    const lines = gunzipSync(await readFile(file)).toString('utf8').trim().split('\n');
    const truncated = join(dir, `move-truncated-${process.pid}.jsonl.gz`);
    await writeFile(truncated, gzipSync(lines.slice(0, -1).join('\n') + '\n'));
    await expect(restoreWorkspace(truncated, { name: 'Truncated' })).rejects.toThrow(/no end record: it is truncated/);
    const altered = join(dir, `move-altered-${process.pid}.jsonl.gz`);
    await writeFile(altered, gzipSync([...lines.slice(0, 2), ...lines.slice(3)].join('\n') + '\n'));
    await expect(restoreWorkspace(altered, { name: 'Altered' })).rejects.toThrow(/the end record counts 3 member records, the file holds 2/);
    const bad = join(dir, `move-bad-${process.pid}.jsonl.gz`);
    const note = JSON.parse(lines.find((l) => l.includes('"kind":"note"'))!);
    note.links = [{ entityId: 'x', entityType: 'feature', importance: 'urgent', ratedAt: note.createdAt }];
    await writeFile(bad, gzipSync([lines[0], JSON.stringify(note), lines.at(-1)].join('\n') + '\n'));
    await expect(restoreWorkspace(bad, { name: 'Bad' })).rejects.toThrow(/line 2: links\.0\.importance: /);
    for (const f of [truncated, altered, bad]) await rm(f, { force: true });
    expect(await getWorkspace(uuidV5(source.ws, 'no such'))).toBeUndefined();
  }, 60_000);
});
