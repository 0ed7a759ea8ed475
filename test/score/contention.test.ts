// Contention through the real handlers on DynamoDB Local: many writers on one item commit one at a
// time, each loser re-reads and retries within its request's budget. Never a 5xx, never drift.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEIGHTS } from '#lib/domain/score.ts';
import { client } from './helpers.ts';
import { verifyScores } from '../../local/admin/score.ts';
import { expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const LEVELS = ['critical', 'important', 'nice to have', 'not important'] as const;

describe('contention', () => {
  it('50 concurrent re-rates of one link: no 5xx (each answers 200, or 429 rate.limitExceeded with Retry-After when its budget ran out, and its retry then lands), and the score is exactly the weight of the importance that landed last', async () => {
    const ws = await newWorkspace();
    const c = client(app, ws.token);
    const p = await c.entity('product');
    const f = await c.entity('feature', p);
    const acme = await c.entity('company');
    const n = await c.note({ customer: acme, links: [[f, 'unknown']] });
    const rerate = (i: number) => c.req('PUT', `/notes/${n}/relationships/link/${f}`, { data: { importance: LEVELS[i % LEVELS.length] } });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => rerate(i)));
    const refused: number[] = [];
    for (const [i, res] of results.entries()) {
      if (res.status === 429) {
        expectError(res, 'rate.limitExceeded', { detail: /^Too many concurrent changes to (note|the link from note) / });
        expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
        refused.push(i);
      } else expect(res.status, res.text).toBe(200);
    }
    // A client honouring Retry-After gets through.
    for (const i of refused) expect((await rerate(i)).status).toBe(200);
    const link = (await c.ok('GET', `/notes/${n}`)).json.data.relationships.data.find((r: { type: string }) => r.type === 'link');
    expect(LEVELS).toContain(link.importance);
    const weight = WEIGHTS[link.importance as keyof typeof WEIGHTS];
    expect([await c.score(f), await c.score(p)]).toEqual([weight, weight]);
    expect(await verifyScores({ workspace: ws.workspaceId, repair: false })).toMatchObject({ mismatches: 0 });
  }, 60_000);
});
