// `npm run bench:note-page`: what one page of notes costs (GET /v2/notes), on the local stack.
// Seeds notes through POST /v2/notes (each with a customer and two rated links), then times pages of
// 25 and 100 and a single note (GET /v2/notes/{id}) at concurrency 1, interleaved, and counts the
// DynamoDB calls each request sends (a middleware on the document client, which the in-process
// gateway's handlers share; the fewest seen over the rounds, since the local stack's sweeper queries
// the table too). Prints p50s, the page-to-single-note ratio and calls per request.
// Knobs: BENCH_NOTES (default 100), BENCH_ROUNDS (default 30).
import { performance } from 'node:perf_hooks';
import { apiClient } from './api.ts';
import { inParallel } from './parallel.ts';
import { median } from './stats.ts';

process.env.LOG_LEVEL = 'silent';
process.env.TABLE_NAME = 'pm-api-note-page';
process.env.RATE_LIMIT_PER_SECOND = '1000';

const { issueApiToken } = await import('#lib/auth/api-tokens.ts');
const { db } = await import('#lib/store/client.ts');
const { addMember } = await import('#lib/store/members.ts');
const { createWorkspace } = await import('#lib/store/workspaces.ts');
const { startLocalStack } = await import('./local-stack.ts');

const NOTES = Number(process.env.BENCH_NOTES ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

let calls = 0;

async function main() {
  const { appUrl, stop } = await startLocalStack('note-page');
  // After the stack: the client is made for the endpoint it set.
  db().middlewareStack.add(
    (next) => (args) => {
      calls++;
      return next(args);
    },
    { step: 'initialize', name: 'benchNotePageCalls' },
  );
  try {
    const base = `${appUrl}/v2`;
    const workspace = await createWorkspace('Note page benchmark');
    const token = (await issueApiToken(await addMember(workspace.id, { email: 'page@example.com', role: 'admin', active: true }))).token;
    const { send, entity } = apiClient(base, token);
    const component = await entity('component', await entity('product'));
    const features = [await entity('feature', component), await entity('feature', component), await entity('feature', component)];
    const user = await entity('user');
    const notes = await inParallel(NOTES, 2, async (i) => {
      const res = await send('POST', '/notes', {
        data: {
          type: 'textNote',
          fields: { name: `Page ${i}` },
          relationships: [
            { type: 'customer', target: { id: user } },
            { type: 'link', target: { id: features[i % 3] }, importance: 'important' },
            { type: 'link', target: { id: features[(i + 1) % 3] }, importance: 'critical' },
          ],
        },
      });
      if (res.status !== 201) throw new Error(`creating a note: HTTP ${res.status} ${res.text}`);
      return res.json!.data!.id!;
    });
    const kinds = { 'page of 100': '/notes?limit=100', 'page of 25': '/notes?limit=25', 'one note': `/notes/${notes[0]}` };
    const times = new Map<string, number[]>(Object.keys(kinds).map((k) => [k, []]));
    const counted = new Map<string, number>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const [kind, path] of Object.entries(kinds)) {
        const before = calls;
        const t0 = performance.now();
        const res = await send('GET', path);
        times.get(kind)!.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
        // The fewest over the rounds: the local stack's sweeper also queries the table, every few seconds.
        counted.set(kind, Math.min(counted.get(kind) ?? Infinity, calls - before));
      }
    }
    const single = median(times.get('one note')!);
    for (const [kind, t] of times) {
      console.log(`${kind.padEnd(12)} p50 ${median(t).toFixed(1)} ms (${(median(t) / single).toFixed(2)}× one note), ${counted.get(kind)} DynamoDB calls`);
    }
  } finally {
    await stop();
  }
}

await main();
