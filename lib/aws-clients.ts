// What every AWS SDK client of the service is made with (DynamoDB's document client in
// lib/store/client.ts, KMS in lib/auth/service-key-kms.ts, Secrets Manager in
// lib/auth/service-secret-aws.ts, SQS in lib/events/sqs.ts), and how each call is sent: every outbound call is bounded.
//  - The request handler (@smithy/node-http-handler) gives up on a connection that takes longer
//    than `connectionMs` to open and on an answer that takes longer than `requestMs` to start, or
//    stalls that long midway (AWS_REQUEST_TIMEOUT_MS, lib/config.ts, read when the client is made);
//    its agents keep connections alive between calls.
//  - A call made for a request carries the request's abort signal (lib/deadline.ts): it is cut off
//    at the deadline or once the request is answered, and one made after that is never sent. Its
//    failure is then the signal's reason (the request's 408), not the SDK's AbortError.
//  - The SDK's standard retries (throttling, 5xx, timeouts, dropped connections; jittered backoff)
//    stop at the deadline: no backoff is started that would end within `retryReserveMs` of it, and
//    the signal cuts off whatever is still waiting at the deadline.
//  - A call of a request that timed out on the client's own bounds, with no retry left before the
//    deadline, fails as the request's 408 too: to the client it is the same unknown outcome (a write
//    the table received may have committed), never a 500.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { MAXIMUM_RETRY_DELAY, StandardRetryStrategy } from '@smithy/core/retry';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { HttpHandlerOptions, StandardRetryBackoffStrategy } from '@smithy/types';
import { config } from './config.ts';
import { requestScope } from './deadline.ts';

export const CALL_BOUNDS = {
  connectionMs: 2_000,
  get requestMs(): number {
    return config.awsRequestTimeoutMs;
  },
  /** Attempts of one call, the first included (the SDK's standard mode). */
  maxAttempts: 3,
  retryReserveMs: 250,
  /** Connections per client and endpoint: the local gateway serves many requests at once from one process. */
  maxSockets: 256,
};

/**
 * The SDK's standard backoff (full jitter over the base × 2^retry, at most MAXIMUM_RETRY_DELAY), that
 * refuses a wait which would end within `retryReserveMs` of the request's deadline: the SDK then
 * gives up with the call's last error, while the caller still has time to answer (a 429 rather than
 * the 408).
 */
class BackoffWithinDeadline implements StandardRetryBackoffStrategy {
  private base = 0;

  setDelayBase(delayBase: number): void {
    this.base = delayBase;
  }

  computeNextBackoffDelay(retries: number): number {
    const delay = Math.floor(Math.random() * Math.min(this.base * 2 ** retries, MAXIMUM_RETRY_DELAY));
    const scope = requestScope();
    if (scope && scope.deadline - Date.now() - delay < CALL_BOUNDS.retryReserveMs) throw new Error("No retry: the request's deadline is too near");
    return delay;
  }
}

/** The request handler and retry strategy of a new client (one per client: each keeps its own connections). */
export function clientBounds(): { requestHandler: NodeHttpHandler; retryStrategy: StandardRetryStrategy } {
  const agent = { keepAlive: true, maxSockets: CALL_BOUNDS.maxSockets };
  return {
    requestHandler: new NodeHttpHandler({
      connectionTimeout: CALL_BOUNDS.connectionMs,
      requestTimeout: CALL_BOUNDS.requestMs,
      throwOnRequestTimeout: true,
      socketTimeout: CALL_BOUNDS.requestMs,
      httpAgent: new HttpAgent(agent),
      httpsAgent: new HttpsAgent(agent),
    }),
    retryStrategy: new StandardRetryStrategy({ maxAttempts: CALL_BOUNDS.maxAttempts, backoff: new BackoffWithinDeadline() }),
  };
}

/**
 * Sends one call, `send(options)`, with the request's abort signal when it runs for a request. A
 * call its signal cut off fails with the signal's reason, one that timed out with the request's timeout error.
 */
export async function bounded<T>(send: (options: HttpHandlerOptions) => Promise<T>): Promise<T> {
  const scope = requestScope();
  if (!scope) return send({});
  const { signal } = scope;
  try {
    return await send({ abortSignal: signal });
  } catch (err) {
    if (signal.aborted && signal.reason) throw signal.reason;
    // The request handler's connection, request and socket timeouts (@smithy/node-http-handler).
    if ((err as { name?: unknown } | undefined)?.name === 'TimeoutError') throw scope.timedOut(err);
    throw err;
  }
}
