// admin import productboard sends the source token to the source only, and reads each list to its
// end once: two real local servers, the source and another host. A `links.next` or a redirect
// naming the other host stops the import with the link named, and the other host receives nothing;
// a next link naming a page already read stops it instead of looping, with nothing of that list
// counted.
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readRun, runKeyOf } from '#lib/store/move/runs.ts';
import { runCli } from './kill.ts';
import { closeServer, listen } from '../../bench/local-stack.ts';

const TOKEN = 'pb-secret-token';
const tokenFile = join(tmpdir(), `move-source-links-token-${process.pid}`);
let source: Server;
let other: Server;
let base = '';
let otherBase = '';
/** What each list answers beyond an empty last page, by path under /v2. */
let special: Record<string, (res: ServerResponse) => void> = {};
const sourceRequests: string[] = [];
const otherRequests: Array<{ url: string; authorization: string | undefined }> = [];

const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

beforeAll(async () => {
  source = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname.replace(/^\/v2/, '');
    sourceRequests.push(path);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
    const answer = special[path];
    if (answer) return answer(res);
    json(res, { data: [], links: { next: null } });
  });
  other = createServer((req, res) => {
    otherRequests.push({ url: req.url!, authorization: req.headers.authorization });
    json(res, { data: [], links: { next: null } });
  });
  base = `${await listen(source)}/v2`;
  otherBase = `${await listen(other)}/v2`;
  await writeFile(tokenFile, TOKEN, { mode: 0o600 });
});

beforeEach(() => {
  special = {};
  sourceRequests.length = 0;
  otherRequests.length = 0;
});

afterAll(async () => {
  await closeServer(source);
  await closeServer(other);
  await rm(tokenFile, { force: true });
});

const args = (name: string) => ['import', 'productboard', '--source', base, '--source-token-file', tokenFile, '--name', name];
/** The refusal: the last line the CLI wrote to stderr (progress lines come before it). */
const lastLine = (stderr: string) => stderr.trim().split('\n').at(-1);
const runOf = (name: string) => readRun(runKeyOf('import productboard', base, createHash('sha256').update(TOKEN).digest('hex'), name));

describe('import productboard: links the source gives', () => {
  it('a links.next on another host stops the import, naming the link; the other host receives no request', async () => {
    const foreign = `${otherBase}/entities/configurations?pageCursor=2`;
    special['/entities/configurations'] = (res) => json(res, { data: [], links: { next: foreign } });
    const run = await runCli(args('Foreign next'));
    expect(run.code).toBe(2);
    expect(lastLine(run.stderr)).toBe(
      `import productboard: The source gave the link ${foreign}, which is not under --source ${base}: not followed (the source token is sent to the source only)`,
    );
    expect(otherRequests).toEqual([]);
  }, 60_000);

  it('a next link outside the source path, or a redirect to another host, is refused the same way', async () => {
    const outside = `${base.replace(/\/v2$/, '')}/admin/secrets`;
    special['/entities/configurations'] = (res) => json(res, { data: [], links: { next: outside } });
    const a = await runCli(args('Outside the path'));
    expect(lastLine(a.stderr)).toBe(
      `import productboard: The source gave the link ${outside}, which is not under --source ${base}: not followed (the source token is sent to the source only)`,
    );
    expect(sourceRequests).not.toContain('/admin/secrets');
    special = { '/notes/configurations': (res) => res.writeHead(302, { location: `${otherBase}/notes/configurations` }).end() };
    const b = await runCli(args('Redirected'));
    expect(b.code).toBe(2);
    expect(lastLine(b.stderr)).toBe(
      `import productboard: The source gave the link ${otherBase}/notes/configurations, which is not under --source ${base}: not followed (the source token is sent to the source only)`,
    );
    expect(otherRequests).toEqual([]);
  }, 60_000);

  it('a next link naming a page already read stops the import instead of looping; nothing of that list is counted', async () => {
    const team = { id: '00000000-0000-4000-8000-000000000001', type: 'team', fields: { name: 'Payments', handle: 'payments' } };
    special['/teams'] = (res) => json(res, { data: [team], links: { next: '/teams' } });
    const run = await runCli(args('Looping teams'));
    expect(run.code).toBe(2);
    expect(lastLine(run.stderr)).toBe(
      "import productboard: The source's list /teams gave as its next page /teams, a page it already gave: the list does not end; nothing more of it was read",
    );
    // Once by the scope check, once as the list's first page.
    expect(sourceRequests.filter((p) => p === '/teams')).toHaveLength(2);
    expect((await runOf('Looping teams'))?.counts.team).toBeUndefined();
  }, 60_000);
});
