// The Productboard compatibility suite: clients generated from Productboard's documents
// run every operation against the local stack, and every response is validated against
// Productboard's own schemas with the named patches applied. What fails today is listed in
// test/compat/baseline.json — per check (statuses, results) and per operation (schema
// mismatches) — and must be exactly what fails: the suite is green now and turns red the moment a
// behaviour changes, for better (delete its baseline lines) or worse. See test/compat/README.md.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from './check.ts';
import { ENTITY_CHECKS } from './entity-checks.ts';
import { FIELD_VALUE_CHECKS } from './field-value-checks.ts';
import { MEMBER_CHECKS } from './member-checks.ts';
import { NOTE_CHECKS } from './note-checks.ts';
import { PATCHES } from './patches.ts';
import { PLANNING_CHECKS } from './planning-checks.ts';
import { StopCheck } from './probe.ts';
import { TEAM_CHECKS } from './team-checks.ts';
import { WEBHOOK_CHECKS } from './webhook-checks.ts';
import { buildSeed, freshWorld, type Seed } from './world.ts';
import { startApp, type TestApp } from '../support/app.ts';

const CHECKS: readonly Check[] = [
  ...ENTITY_CHECKS,
  ...FIELD_VALUE_CHECKS,
  ...PLANNING_CHECKS,
  ...NOTE_CHECKS,
  ...MEMBER_CHECKS,
  ...TEAM_CHECKS,
  ...WEBHOOK_CHECKS,
];

/** test/compat/baseline.json: what fails today. */
interface Baseline {
  /** Schema mismatches no patch covers, by "<operationId> <status>". */
  schemas: Record<string, string[]>;
  /** Other failures, by check id. */
  checks: Record<string, string[]>;
}

const baselineUrl = new URL('baseline.json', import.meta.url);
const reportDir = new URL('../../.local/compat/', import.meta.url);

let app: TestApp;
let seed: Seed;
let baseline: Baseline;
const observed: Baseline = { schemas: {}, checks: {} };
const ran = new Set<string>();
const calls = new Set<string>();
const neededBy = new Map<string, string[]>(PATCHES.map((p) => [p.name, []]));

const sortedMap = (m: Record<string, string[]>) =>
  Object.fromEntries(
    Object.entries(m)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, [...v].sort()]),
  );

beforeAll(async () => {
  baseline = JSON.parse(await readFile(baselineUrl, 'utf8'));
  app = await startApp();
  seed = await buildSeed(app);
});

afterAll(async () => {
  // This run in the baseline's format (copy what you mean to accept), and which check needed which patch.
  await mkdir(reportDir, { recursive: true });
  const report: Baseline = { schemas: sortedMap(observed.schemas), checks: observed.checks };
  await writeFile(new URL('observed.json', reportDir), JSON.stringify(report, null, 2) + '\n');
  await writeFile(new URL('patches.json', reportDir), JSON.stringify(Object.fromEntries(neededBy), null, 2) + '\n');
  await writeFile(new URL('calls.json', reportDir), JSON.stringify([...calls].sort(), null, 2) + '\n');
  if (ran.size === CHECKS.length) {
    const operations = new Set([...calls].map((c) => c.split(' ')[0]));
    console.info(`compat: ${CHECKS.length} checks over ${operations.size} Productboard operations`);
    for (const [name, checks] of neededBy) console.info(`compat patch ${name}: ${checks.length ? `needed by ${checks.length} checks` : 'NOT NEEDED'}`);
  }
  await app?.close();
});

describe('Productboard compatibility (test/compat/baseline.json lists what fails today)', () => {
  it('check ids are unique, and the baseline names existing checks only', () => {
    const ids = CHECKS.map((c) => c.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(Object.keys(baseline.checks).filter((id) => !ids.includes(id))).toEqual([]);
    const empty = (m: Record<string, string[]>) =>
      Object.entries(m)
        .filter(([, lines]) => !Array.isArray(lines) || lines.length === 0)
        .map(([k]) => k);
    expect([...empty(baseline.checks), ...empty(baseline.schemas)]).toEqual([]);
  });

  for (const check of CHECKS) {
    it(`${check.id}: ${check.title}`, async () => {
      const world = check.fresh ? await freshWorld(app) : seed.world;
      const probe = world.probe();
      try {
        await check.run({ app, seed, world, probe });
      } catch (err) {
        if (!(err instanceof StopCheck)) probe.fail(`error: ${(err as Error).message}`);
      }
      ran.add(check.id);
      if (probe.failures.length) observed.checks[check.id] = probe.failures;
      for (const [key, lines] of probe.mismatches) observed.schemas[key] = [...new Set([...(observed.schemas[key] ?? []), ...lines])];
      for (const call of probe.calls) calls.add(call);
      for (const name of probe.needed) neededBy.get(name)!.push(check.id);
      expect(
        probe.failures,
        `${check.id}: what failed differs from test/compat/baseline.json (a line gone = behaviour added: delete it there; a new line = a regression or a new gap). This run: .local/compat/observed.json`,
      ).toEqual(baseline.checks[check.id] ?? []);
    });
  }

  // The two below need every check's responses: a run filtered to some checks (-t) skips them.
  it("every response validates against Productboard's schema, but for the baseline's known mismatches", (ctx) => {
    if (ran.size < CHECKS.length) ctx.skip();
    expect(
      sortedMap(observed.schemas),
      "schema mismatches differ from test/compat/baseline.json 'schemas' (a line gone = fixed: delete it there; a new line = a new difference: fix it, or add a named patch in test/compat/patches.ts with its row in docs/compatibility.md)",
    ).toEqual(sortedMap(baseline.schemas));
  });

  it('every named patch is still needed by some response (docs/compatibility.md stays honest)', (ctx) => {
    if (ran.size < CHECKS.length) ctx.skip();
    const unneeded = [...neededBy].filter(([, checks]) => checks.length === 0).map(([name]) => name);
    expect(unneeded, 'patches no response needs any more: delete them from test/compat/patches.ts and docs/compatibility.md').toEqual([]);
  });
});
