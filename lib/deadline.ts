// The time a piece of work may take, carried through async calls so the store can spend a request's
// remaining budget (retries, backoff) without the HTTP layer passing it down every call. The
// pipeline (lib/http/pipeline.ts) runs each handler within its request's deadline; work outside a
// request (the admin CLI, tests calling the store) gets the default request budget from its start.
import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from './config.ts';

const current = new AsyncLocalStorage<number>();

/** Runs `work` with `deadline` (epoch milliseconds) as the time it must finish by. */
export function withDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  return current.run(deadline, work);
}

/** The deadline of the work in progress, or one request budget from `start` outside any. */
export function deadlineOf(start = Date.now()): number {
  return current.getStore() ?? start + config.requestTimeoutMs;
}
