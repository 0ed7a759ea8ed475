// A compatibility check: one Productboard behaviour, exercised through the generated clients and
// recorded by a Probe. Its failures are compared with test/compat/baseline.json by compat.test.ts.
import type { Probe } from './probe.ts';
import type { Seed, World } from './world.ts';
import type { TestApp } from '../support/app.ts';

export interface CheckRun {
  app: TestApp;
  seed: Seed;
  /** The seed's world, or a fresh workspace for checks that write. */
  world: World;
  probe: Probe;
}

export interface Check {
  /** Stable key in test/compat/baseline.json: `<Productboard operationId>` or `<operationId>.<case>`. */
  id: string;
  /** The rule it proves. */
  title: string;
  /** Runs in a fresh workspace (it writes, or needs data of its own). */
  fresh: boolean;
  run(t: CheckRun): Promise<void>;
}

/** A check that reads the shared seed only. */
export const reads = (id: string, title: string, run: Check['run']): Check => ({ id, title, fresh: false, run });

/** A check with a workspace of its own. */
export const writes = (id: string, title: string, run: Check['run']): Check => ({ id, title, fresh: true, run });

/** The ids of a list answer's `data`. */
export const idsOf = (list: { data?: Array<{ id?: string }> | null }) => (list.data ?? []).map((item) => String(item.id));

interface Relationship {
  type?: string;
  target?: { id?: string };
}

/** A relationship as "<type> <target's name>" ("parent Checkout"). */
export const relationshipLine = (probe: Probe, r: Relationship | undefined) => `${r?.type} ${probe.nameList([String(r?.target?.id)])}`;

/** A relationship list (entity's or note's) as sorted relationship lines. */
export const relationshipLines = (probe: Probe, list: { data?: Relationship[] | null } | undefined) =>
  (list?.data ?? []).map((r) => relationshipLine(probe, r)).sort();

/** The pageCursor carried by a links.next URL (clients repeat the request with it: spec, pagination rule 3). */
export function cursorOf(next: string | null | undefined): string | undefined {
  if (!next) return undefined;
  return new URL(next).searchParams.get('pageCursor') ?? undefined;
}
