// `npm run bench:pages`: what the member page of a product costs (GET {app_url}/entities/{id}),
// beside the score route of the same product (GET /v2/entities/{id}/score), on the local stack.
// Seeds through the API (the real write path): a product with BENCH_FEATURES features (default
// 1 000) that customers' notes rate, 30 notes linked to the product itself, and a second product
// with 10 features; signs a member in on the pages' own sign-in form; then times both pages and the
// score route at concurrency 1, interleaved, and counts the DynamoDB calls and the keys each
// request reads (a middleware on the document client, which the in-process gateway's handlers
// share). Prints p50s, the page-to-score ratio, calls and keys per request, and rewrites its
// section of docs/performance.md. Knobs: BENCH_FEATURES, BENCH_ROUNDS (default 40).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { writeSection } from './doc-section.ts';
import { inParallel } from './parallel.ts';
import { median } from './stats.ts';

process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-pages';
process.env.RATE_LIMIT_PER_SECOND = '1000';

const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const { hashPassword } = await import('#lib/auth/passwords.ts');
const { db } = await import('#lib/store/client.ts');
const { addMember } = await import('#lib/store/members.ts');
const { MAX_RANKED_ON_PAGE } = await import('#lib/store/ranking.ts');
const { setMemberPassword } = await import('#lib/store/sign-in.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { startLocalStack } = await import('./local-stack.ts');

const FEATURES = Number(process.env.BENCH_FEATURES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const RATED_NOTES = 300;
const PRODUCT_NOTES = 30;
const PASSWORD = 'bench pages password';
/** The goal: the page of a product with 1 000 features within this many score reads' time. */
const GOAL_RATIO = 40;

interface Counted {
  calls: number;
  keys: number;
}
const counted: Counted = { calls: 0, keys: 0 };

async function main() {
  const { appUrl, stop } = await startLocalStack('pages');
  // After the stack: the client is made for the endpoint it set.
  db().middlewareStack.add(
    (next) => (args) => {
      counted.calls++;
      const input = args.input as { Key?: unknown; RequestItems?: Record<string, { Keys?: unknown[] }> };
      counted.keys += input.Key ? 1 : Object.values(input.RequestItems ?? {}).reduce((n, r) => n + (r.Keys?.length ?? 0), 0);
      return next(args);
    },
    { step: 'initialize', name: 'benchPagesCalls' },
  );
  try {
    const base = `${appUrl}/v2`;
    const workspace = await createWorkspace('Pages benchmark');
    const member = await addMember(workspace.id, { email: 'pages@example.com', role: 'admin', active: true });
    await setMemberPassword(workspace.id, member.id, await hashPassword(PASSWORD));
    const token = (await issueApiToken(member)).token;
    const post = async (path: string, data: unknown): Promise<string> => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ data }),
      });
      const json = (await res.json()) as { data?: { id?: string } };
      if (res.status !== 201) throw new Error(`POST ${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
      return json.data!.id!;
    };
    const entity = (type: string, name: string, parent?: string) =>
      post('/entities', { type, fields: { name }, ...(parent ? { relationships: [{ type: 'parent', target: { id: parent } }] } : {}) });
    const t0 = performance.now();
    const big = await entity('product', 'Big product');
    const features = await inParallel(FEATURES, 4, (i) => entity('feature', `Feature ${i}`, big));
    const small = await entity('product', 'Small product');
    const smallFeatures = await inParallel(10, 4, (i) => entity('feature', `Small feature ${i}`, small));
    const companies = await inParallel(20, 4, (i) => entity('company', `Company ${i}`));
    const importances = ['critical', 'important', 'nice to have', 'unknown', 'not important'];
    await inParallel(RATED_NOTES, 4, (n) =>
      post('/notes', {
        type: 'textNote',
        fields: { name: `Feedback ${n}`, content: `<p>What customer ${n % 20} said about features ${(n * 7) % FEATURES} and ${(n * 13 + 1) % FEATURES}.</p>` },
        relationships: [
          { type: 'customer', target: { id: companies[n % companies.length] } },
          { type: 'link', target: { id: features[(n * 7) % FEATURES] }, importance: importances[n % importances.length] },
          { type: 'link', target: { id: features[(n * 13 + 1) % FEATURES] }, importance: importances[(n + 1) % importances.length] },
          { type: 'link', target: { id: smallFeatures[n % 10] }, importance: importances[(n + 2) % importances.length] },
        ],
      }),
    );
    await inParallel(PRODUCT_NOTES, 4, (n) =>
      post('/notes', {
        type: 'textNote',
        fields: { name: `About the product ${n}`, content: '<p>The product as a whole.</p>' },
        relationships: [
          { type: 'customer', target: { id: companies[n % companies.length] } },
          { type: 'link', target: { id: n % 2 ? big : small }, importance: 'important' },
        ],
      }),
    );
    const seedSeconds = (performance.now() - t0) / 1000;

    const cookie = await signIn(appUrl, workspace.id, member.email);
    const kinds: Record<string, { url: string; headers: Record<string, string> }> = {
      'score route': { url: `${base}/entities/${big}/score`, headers: { authorization: `Bearer ${token}` } },
      [`page, ${FEATURES.toLocaleString('en-US')} features`]: { url: `${appUrl}/entities/${big}`, headers: { cookie } },
      'page, 10 features': { url: `${appUrl}/entities/${small}`, headers: { cookie } },
    };
    const times = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
    const reads = new Map<string, Counted>();
    for (let r = -3; r < ROUNDS; r++) {
      for (const [kind, { url, headers }] of Object.entries(kinds)) {
        const before = { ...counted };
        const t = performance.now();
        const res = await fetch(url, { headers, redirect: 'manual' });
        const body = await res.text();
        const ms = performance.now() - t;
        if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${body.slice(0, 300)}`);
        // Three rounds of warm-up: module loading and first connections are not the page's cost.
        if (r >= 0) times.get(kind)!.push(ms);
        reads.set(kind, { calls: counted.calls - before.calls, keys: counted.keys - before.keys });
      }
    }
    const score = median(times.get('score route')!);
    const lines: string[] = [];
    const rows = Object.keys(kinds).map((kind) => {
      const p50 = median(times.get(kind)!);
      const r = reads.get(kind)!;
      lines.push(
        `${kind.padEnd(20)} p50 ${p50.toFixed(1).padStart(6)} ms  ${(p50 / score).toFixed(1).padStart(5)}× the score route  ${r.calls} DynamoDB calls, ${r.keys} keys read by key`,
      );
      return { kind, p50, ratio: p50 / score, ...r };
    });
    const bigRow = rows[1]!;
    const met = bigRow.ratio <= GOAL_RATIO;
    console.log(lines.join('\n'));
    console.log(
      `goal: the page of a product with ${FEATURES} features within ${GOAL_RATIO}× the score route's p50 → ${bigRow.ratio.toFixed(1)}× ${met ? 'met' : 'NOT met'}`,
    );
    await writeSection(
      'bench:pages',
      `## The member pages (\`npm run bench:pages\`)

### Method

The member page of a product (\`GET {app_url}/entities/{id}\`, signed in with a page session) beside
the score route of the same product (\`GET /v2/entities/{id}/score\`, an API token), on the local
stack (in-process gateway, DynamoDB Local), at concurrency 1, the three requests interleaved,
${ROUNDS} rounds after 3 of warm-up. Seeded through the API: a product with ${FEATURES.toLocaleString('en-US')} features rated by
${RATED_NOTES} customers' notes (each linked to two of them and to one of the second product's), ${PRODUCT_NOTES} notes
linked to the products themselves, and a second product with 10 features (seeding took ${seedSeconds.toFixed(0)} s). DynamoDB calls and keys read are
counted by a middleware on the document client; "keys read by key" counts GetItem and
BatchGetItem keys (a Query reads index entries besides).

What the page reads, whatever lies below the children (lib/http/member-pages/entity-page.ts): the
page session and its member, the entity, its ancestors (at most 8), its children's ids from the
children index and their items in BatchGetItems of 100 keys side by side (at most
${MAX_RANKED_ON_PAGE.toLocaleString('en-US')} children are ranked on one page), one page of 20 linked notes through the links' time index
with their notes and customers by key, the owner, the relations. The goal: the page of a product
with ${FEATURES.toLocaleString('en-US')} features answers within ${GOAL_RATIO}× the score route's p50 (which reads the entity with the
credential in one BatchGetItem).

### Figures

| request | p50 | × score route | DynamoDB calls | keys read by key |
|---|---|---|---|---|
${rows.map((r) => `| ${r.kind} | ${r.p50.toFixed(1)} ms | ${r.ratio.toFixed(1)}× | ${r.calls} | ${r.keys} |`).join('\n')}

Goal ${met ? 'met' : '**not met**'}: ${bigRow.ratio.toFixed(1)}× ${met ? '≤' : '>'} ${GOAL_RATIO}×. Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the end of
the run (2 cores: above 2, other work shared the machine and the absolute times are inflated). The
page's cost grows with the number of children (their items), not with anything below them.`,
    );
  } finally {
    await stop();
  }
}

/** The pages' own sign-in form, as a browser submits it: the page session cookie. */
async function signIn(appUrl: string, workspaceId: string, email: string): Promise<string> {
  const page = await fetch(`${appUrl}/sign-in`);
  const preSession = /__Host-pm_pages_presession=([^;]+)/.exec(page.headers.getSetCookie().join('\n'))?.[1];
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!preSession || !csrf) throw new Error('The sign-in page gave no pre-session cookie or CSRF token');
  const res = await fetch(`${appUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `__Host-pm_pages_presession=${preSession}` },
    body: new URLSearchParams({ csrf_token: csrf, workspace: workspaceId, email, password: PASSWORD, next: '/' }).toString(),
  });
  const session = /__Host-pm_pages=([^;]+)/.exec(res.headers.getSetCookie().join('\n'))?.[1];
  if (res.status !== 303 || !session) throw new Error(`Signing in to the pages: HTTP ${res.status}`);
  return `__Host-pm_pages=${session}`;
}

await main();
