// admin import productboard with the local stack as the source (it answers Productboard's v2
// documents): a seeded workspace imported through the API equals its source record by record and
// score by score (by the import's rating-time rule); an import killed twice (SIGKILL, a real child
// process) and resumed gives the same workspace; a token that cannot read names and e-mails is
// refused before anything is written.
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import { SCOPES } from '#lib/domain/scopes.ts';
import { uuidV5 } from '#lib/domain/uuid-v5.ts';
import { readRun, runKeyOf } from '#lib/store/move/runs.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { addBulkNotes } from './bulk-seed.ts';
import { runAndKill, runCli } from './kill.ts';
import { mapIds, readWorkspace, recordIds, sortedLists, type WorkspaceRead } from './read-workspace.ts';
import { scoresByImportRule } from './score-model.ts';
import { seedWorkspace, type Seeded } from './seed.ts';
import { importProductboard, PHASES, type ImportResult } from '../../local/move/import-productboard.ts';
import { startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let source: Seeded;
let sourceRead: WorkspaceRead;
const tokenFile = join(tmpdir(), `move-source-token-${process.pid}`);

beforeAll(async () => {
  app = await startApp();
  source = await seedWorkspace({ notes: 60, name: 'Import source' });
  await addBulkNotes(source.ws, 940);
  sourceRead = await readWorkspace(app.baseUrl, source.token);
  await writeFile(tokenFile, `${source.token}\n`, { mode: 0o600 });
}, 600_000);

afterAll(async () => {
  await app?.close();
  await rm(tokenFile, { force: true });
});

/** What the import should make of the source: its records with ids mapped and their source in metadata, no webhook, scores by the import's rule. */
function expectedOf(target: string): WorkspaceRead {
  const id = (sourceId: string) => uuidV5(target, `${app.baseUrl}\n${sourceId}`);
  const expected = mapIds(sourceRead, recordIds(sourceRead), id);
  for (const [sourceId, record] of Object.entries(sourceRead.entities) as Array<[string, any]>) {
    (expected.entities[id(sourceId)] as any).metadata = { source: { system: 'productboard', recordId: sourceId, url: record.links.html } };
  }
  for (const [sourceId, record] of Object.entries(sourceRead.notes) as Array<[string, any]>) {
    (expected.notes[id(sourceId)] as any).metadata = { source: { system: 'productboard', recordId: sourceId, url: record.links.html } };
  }
  expected.webhooks = {};
  // Productboard's API lists no note comments: none are imported.
  expected.comments = {};
  expected.scores = scoresByImportRule(sourceRead, id);
  return sortedLists(expected);
}

let first: ImportResult;

describe('import productboard from the local stack', () => {
  it('the imported workspace equals its source record by record, and every score is what the rating-time rule gives', async () => {
    first = await importProductboard({ source: app.baseUrl, tokenFile, name: 'Imported once' });
    expect(first).toMatchObject({
      name: 'Imported once',
      resumed: false,
      counts: { team: 2, member: 3, customField: 4, tagValue: 4, entity: 34, relation: 5, note: 1000 },
    });
    expect(first.skipped).toEqual({});
    expect(first.source.throttled).toBe(0);
    const read = sortedLists(await readWorkspace(app.baseUrl, first.token.token));
    expect(read).toEqual(expectedOf(first.id));
    // What the comparison covers, so an empty read cannot pass it.
    expect([Object.keys(read.teams).length, read.tagValues.length, Object.keys(read.entities).length]).toEqual([2, 4, 34]);
    // The seed's ratings were set before any later edit of their notes, except the edited ones: where
    // no note was edited after it was rated the source's score is the import's too.
    expect(Object.values(read.scores).filter((s) => s > 0).length).toBeGreaterThan(10);
    expect(await verifyWorkspace(first.id, false)).toMatchObject({ mismatches: 0 });
  }, 300_000);

  it('an import killed twice by SIGKILL at random points and run again gives the same workspace as one uninterrupted run', async () => {
    const name = 'Imported with interruptions';
    const args = ['import', 'productboard', '--source', app.baseUrl, '--source-token-file', tokenFile, '--name', name];
    const runKey = runKeyOf('import productboard', app.baseUrl, createHash('sha256').update(source.token).digest('hex'), name);
    // Once in the entities, once part-way through the notes (after their first page), a random moment later.
    const a = await runAndKill(args, runKey, (r) => r.checkpoint.phase >= PHASES.indexOf('entity'), Math.random() * 150);
    const b = await runAndKill(args, runKey, (r) => r.checkpoint.phase === PHASES.indexOf('note') && r.checkpoint.next !== undefined, Math.random() * 150);
    expect([a.killed, b.killed, a.run.signal, b.run.signal], `${a.run.stderr}\n${b.run.code} ${b.run.stderr}`).toEqual([true, true, 'SIGKILL', 'SIGKILL']);
    const before = await readRun(runKey);
    expect(before?.state).not.toBe('complete');
    expect(await getWorkspace(before!.workspaceId)).toBeUndefined();
    const last = await runCli(args);
    expect(last.code, last.stderr).toBe(0);
    const out = JSON.parse(last.stdout) as ImportResult;
    expect(out).toMatchObject({ id: before!.workspaceId, name, resumed: true, counts: first.counts, skipped: first.skipped });
    expect(sortedLists(await readWorkspace(app.baseUrl, out.token.token))).toEqual(expectedOf(out.id));
  }, 600_000);

  it('a source token without members:pii:read is refused before anything is written', async () => {
    const limited = await issueApiToken(source.admin, { scopes: SCOPES.filter((s) => s !== 'members:pii:read') });
    const file = `${tokenFile}-limited`;
    await writeFile(file, limited.token);
    const key = runKeyOf('import productboard', app.baseUrl, createHash('sha256').update(limited.token).digest('hex'), 'No PII');
    await expect(importProductboard({ source: app.baseUrl, tokenFile: file, name: 'No PII' })).rejects.toThrow(/\[redacted\] .*lacks members:pii:read/);
    expect(await readRun(key)).toBeUndefined();
    await rm(file, { force: true });
  });
});
