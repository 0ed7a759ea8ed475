// The time a request may take, and the signal that ends its outbound calls. The pipeline
// (lib/http/pipeline.ts) runs each request inside a scope that holds its deadline and an abort
// signal; the signal aborts at the deadline and as soon as the request is answered, and every AWS
// call reads it from the scope (lib/aws-clients.ts), so nothing is sent to the table for a request after its
// answer, and a call in flight at that moment is cut off.
//
// The scope is an AsyncLocalStorage rather than a parameter of every store function: the signal must
// reach every call — the bearer check's read, the rate-limit counter, each read of a write's build,
// the key source's KMS calls — through modules whose signatures other code depends on, and a
// parameter forgotten once would be a call without a bound. Its cost is a promise hook for every
// promise of the process once a scope is entered (Node 20 and 22): docs/performance.md, "The request
// scope", measures it on the score route. Work outside a request (the admin CLI, the workers, tests
// calling the store) has no scope: its calls are bounded by the clients' timeouts alone, and a write's
// contention loop gets one request budget from its start.
import { AsyncLocalStorage } from 'node:async_hooks';
import { config } from './config.ts';

/**
 * A request's abort signal, in the shape the SDK's request handlers take (@smithy/node-http-handler
 * reads `aborted` and `reason` and listens with add/removeEventListener; @smithy/types names the
 * shape `AbortSignal`). Not Node's AbortController: making one, lifting its listener limit (every
 * call in flight for the request listens, many at once is normal) and aborting it cost about 13 µs
 * a request on Node 20 (200 000 timed in a loop), about an eighth of what the score route's handler
 * spends beyond its one read; this costs well under one.
 */
export class RequestSignal {
  aborted = false;
  reason: Error | undefined;
  /** The older single-listener form, which a handler uses when the signal has no addEventListener. */
  onabort: (() => void) | null = null;
  #listeners: Array<() => void> | undefined;

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) (this.#listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.#listeners?.indexOf(listener) ?? -1;
    if (i !== -1) this.#listeners!.splice(i, 1);
  }

  /** Aborts once: later calls change nothing. */
  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.#listeners ?? [];
    this.#listeners = undefined;
    for (const listener of listeners) listener();
    this.onabort?.();
  }
}

interface RequestScope {
  /** Epoch milliseconds. */
  readonly deadline: number;
  /** Aborts at the deadline (with the request's timeout error) or once the request is answered. */
  readonly signal: RequestSignal;
  /** The request's timeout error; `cause`: what ran out of time before the deadline did (lib/aws-clients.ts). */
  readonly timedOut: (cause?: unknown) => Error;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** The scope of the request the caller works for, if any. */
export const requestScope = (): RequestScope | undefined => scopes.getStore();

/**
 * Runs `work` as a request with `deadline`: its calls abort with `timedOut()` at the deadline, and
 * with `answered` once `work` has settled (whatever it left running is cut off from the table).
 */
export async function withinRequest<T>(deadline: number, timedOut: (cause?: unknown) => Error, work: () => Promise<T>): Promise<T> {
  const signal = new RequestSignal();
  const timer = setTimeout(() => signal.abort(timedOut()), Math.max(0, deadline - Date.now()));
  try {
    return await scopes.run({ deadline, signal, timedOut }, work);
  } finally {
    clearTimeout(timer);
    signal.abort(ANSWERED);
  }
}

/** Why a call made after its request was answered fails: it is never sent. */
class RequestAnswered extends Error {
  constructor() {
    super('The request was answered: nothing more is sent for it');
    this.name = 'RequestAnswered';
  }
}

/** One reason for every request: an Error captures its stack when made, which every answer would pay. */
const ANSWERED = new RequestAnswered();

/**
 * Runs `work` outside any request: work of the instance that concurrent requests share (the rate
 * limiter's lease of the instance's budget, lib/http/rate-limiter.ts), which one request may begin
 * and others await. Its calls carry no request's signal, so one request's answer does not cut off
 * what others wait for; they are bounded by the clients' timeouts.
 */
export const detached = <T>(work: () => T): T => scopes.exit(work);

/** `work`'s outcome, or the request's abort reason if its signal aborts first: a request waits for shared work no longer than itself. */
export function forRequest<T>(work: Promise<T>): Promise<T> {
  const signal = scopes.getStore()?.signal;
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason!);
  let stop = () => {};
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(signal.reason!);
    signal.addEventListener('abort', onAbort);
    stop = () => signal.removeEventListener('abort', onAbort);
  });
  return Promise.race([work, aborted]).finally(stop);
}

/** `deadline` (epoch milliseconds), else the request scope's, else one request budget from `start`. */
export const deadlineOf = (start: number, deadline?: number): number => deadline ?? scopes.getStore()?.deadline ?? start + config.requestTimeoutMs;
