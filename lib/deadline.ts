// The time a request may take, so the store can spend what is left of it (retries, backoff). The
// pipeline (lib/http/pipeline.ts) sets each request's deadline on its ApiRequest, and the handler
// passes the request to the store's writes as their WriteScope (lib/store/idempotency.ts): explicit,
// not an AsyncLocalStorage, whose promise hook (Node 20 and 22) would run for every promise of the
// process once one was entered. Work outside a request (the admin CLI, tests calling the store) gets
// the default request budget from its start.
import { config } from './config.ts';

/** `deadline` (epoch milliseconds), or one request budget from `start` when there is none. */
export const deadlineOf = (start: number, deadline?: number): number => deadline ?? start + config.requestTimeoutMs;
