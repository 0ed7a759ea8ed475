// Crashes and a slow table, injected at the SDK client's middleware stack (mocks: DynamoDB Local
// cannot crash a process half-way through a write). A crash lets the call it names land, then fails
// every later call of this process — the request's and anything still running beside it — until
// healed, so the work it interrupts really stops: what the table holds is what a crash would leave.
import { expect } from 'vitest';
import { db } from '#lib/store/client.ts';
import { sweep } from '#lib/store/sweep.ts';
import { workOf } from '#lib/store/work.ts';

type Input = Record<string, unknown>;
/** A call as the middleware sees it: the operation and its input (native values, before marshalling). */
export interface Call {
  operation: string;
  input: Input;
}

const skOf = (v: unknown): string => (typeof v === 'string' ? v : typeof (v as { S?: unknown } | undefined)?.S === 'string' ? (v as { S: string }).S : '');

/** The sort keys a TransactWriteItems writes (puts, updates, deletes, checks), in order. */
function transactionKeys(call: Call): string[] {
  if (call.operation !== 'TransactWriteItems') return [];
  const items = (call.input.TransactItems as Array<Record<string, { Item?: Input; Key?: Input }>> | undefined) ?? [];
  return items.map((t) => {
    const op = Object.values(t)[0]!;
    return skOf((op.Item ?? op.Key)?.sk);
  });
}

/** Does the call put or update an item whose sort key starts with `prefix` (in a transaction)? */
export const writesKey = (call: Call, prefix: string) => transactionKeys(call).some((sk) => sk.startsWith(prefix));

class InjectedCrash extends Error {
  constructor(what: string) {
    super(`injected crash: ${what}`);
    this.name = 'InjectedCrash';
  }
}

const NAME = 'injectedCrash';
const SLOW = 'injectedSlowness';

/**
 * Crashes this process's DynamoDB calls once the `nth` call `matches` has landed (or, `before`,
 * instead of sending it). Returns what happened: `crashed`, and the calls refused since.
 */
export function crashAt(matches: (call: Call) => boolean, options: { nth?: number; before?: boolean } = {}) {
  const state = { seen: 0, crashed: false, refused: 0 };
  const nth = options.nth ?? 1;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      if (state.crashed) {
        state.refused++;
        throw new InjectedCrash('the process is down');
      }
      const call: Call = { operation: String(context.commandName ?? '').replace(/Command$/, ''), input: args.input as Input };
      const hit = matches(call) && ++state.seen === nth;
      if (hit && options.before) {
        state.crashed = true;
        throw new InjectedCrash(`before ${call.operation}`);
      }
      const out = await next(args);
      if (hit) state.crashed = true;
      return out;
    },
    { step: 'initialize', name: NAME },
  );
  return state;
}

/** The update expressions of a call: an UpdateItem's, or those of a transaction's updates. */
function updateExpressions(call: Call): string[] {
  if (typeof call.input.UpdateExpression === 'string') return [call.input.UpdateExpression];
  const items = (call.input.TransactItems as Array<{ Update?: { UpdateExpression?: string } }> | undefined) ?? [];
  return items.flatMap((t) => (t.Update?.UpdateExpression !== undefined ? [t.Update.UpdateExpression] : []));
}

/**
 * Counts this process's DynamoDB calls by operation while `work` runs, and measures the longest
 * update expression sent (DynamoDB refuses one over 4 KB; DynamoDB Local does not check).
 */
export async function countCalls<T>(
  work: () => Promise<T>,
): Promise<{ result: T; calls: Record<string, number>; total: number; longestUpdateExpression: number }> {
  const calls: Record<string, number> = {};
  let longestUpdateExpression = 0;
  const name = 'countCalls';
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const op = String(context.commandName ?? '').replace(/Command$/, '');
      calls[op] = (calls[op] ?? 0) + 1;
      for (const e of updateExpressions({ operation: op, input: args.input as Input }))
        longestUpdateExpression = Math.max(longestUpdateExpression, Buffer.byteLength(e));
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    const result = await work();
    return { result, calls, total: Object.values(calls).reduce((a, b) => a + b, 0), longestUpdateExpression };
  } finally {
    db().middlewareStack.remove(name);
  }
}

/** The process comes back: calls go through again. */
export function heal(): void {
  db().middlewareStack.remove(NAME);
  db().middlewareStack.remove(SLOW);
}

/**
 * A request that crashes once a transaction writing a key that starts with `prefix` (its pending
 * work's) has landed, run with a short request budget so its lease on that work runs out within
 * seconds; the process is healed afterwards.
 */
export async function crashedAfter(prefix: string, request: () => Promise<{ status: number }>, budgetMs = 5000): Promise<void> {
  const budget = process.env.REQUEST_TIMEOUT_MS;
  process.env.REQUEST_TIMEOUT_MS = String(budgetMs);
  try {
    const crash = crashAt((sent) => writesKey(sent, prefix));
    expect((await request()).status).toBe(500);
    expect(crash.crashed).toBe(true);
  } finally {
    heal();
    process.env.REQUEST_TIMEOUT_MS = budget;
  }
}

/** Waits until the crashed request's lease on the workspace's pending work has run out. */
export async function untilDue(ws: string): Promise<void> {
  const latest = Math.max(0, ...(await workOf(ws)).map((w) => w.due));
  await new Promise((r) => setTimeout(r, Math.max(0, latest - Date.now() + 50)));
}

/** One sweep of the workspace, as the sweeper's schedule runs it. */
export const sweepNow = (ws: string) => sweep({ workspace: ws, until: Date.now() + 60_000 });

/** Sweeps the workspace once the crashed request's lease on its work ran out. */
export async function sweepWhenDue(ws: string) {
  await untilDue(ws);
  return sweepNow(ws);
}
