// One delivery attempt of one event to one subscription — the same code behind the deployed
// delivery function (functions/events/deliver.ts, SQS) and the local queue (local/workers.ts):
//   1. the subscription as it is now: deleted → dropped; paused → dead (to the dead-letter queue);
//   2. the delivery claimed (lib/store/webhooks.ts): already delivered or given up → nothing to do;
//   3. the destination checked again (DNS may have changed) and the POST pinned to that address,
//      signed per Standard Webhooks with the subscription's secret, its Authorization header added;
//   4. 2xx → delivered; 410 Gone → the subscription pauses; any other failure waits its turn in the
//      retry schedule (lib/domain/delivery-schedule.ts) and after the last attempt is dead, which
//      counts towards pausing the subscription.
import type { DeliveryJob } from './delivery-job.ts';
import { checkUrl, DestinationRejected, resolveDestination, type DestinationPolicy } from './destination.ts';
import { POST_TIMEOUT_MS, post, type PostResult } from './post.ts';
import { open, webhookSecretKey } from './secret-box.ts';
import { signedHeaders } from './signature.ts';
import { serviceSecret } from '../auth/service-secret.ts';
import { config } from '../config.ts';
import { nextWaitMs, PAUSE_AFTER_DEAD } from '../domain/delivery-schedule.ts';
import { claimDelivery, clearFailureStreak, getWebhook, pauseWebhook, recordDeadDelivery, settleDelivery, type StoredWebhook } from '../store/webhooks.ts';

/** `attempt`: the delivery's attempts so far, this one included (lib/store/webhooks.ts claimDelivery), where one was made. */
type DeliveryOutcome =
  | { kind: 'delivered'; attempt: number }
  | { kind: 'duplicate' }
  | { kind: 'dropped'; reason: string }
  | { kind: 'retry'; waitMs: number; reason: string; attempt?: number }
  | { kind: 'dead'; reason: string; attempt?: number };

interface DeliveryOptions {
  now?: () => number;
  random?: () => number;
  timeoutMs?: number;
  policy?: DestinationPolicy;
  /** Compresses the retry schedule (0–1); the real one unless given. */
  scale?: number;
}

/** Field names of the sealed secrets: part of the associated data, so they cannot be swapped. */
export const sealContext = (subscriptionId: string, field: 'signingSecret' | 'authorization') => `${subscriptionId}/${field}`;

/** Extra time a claim lasts beyond the POST's own limit. */
const LEASE_MARGIN_MS = 10_000;

async function secretsOf(sub: StoredWebhook): Promise<{ signingSecret: string; authorization: string | undefined }> {
  const key = webhookSecretKey(await serviceSecret());
  return {
    signingSecret: open(key, sub.sealedSigningSecret, sealContext(sub.id, 'signingSecret')),
    authorization: sub.sealedAuthorization ? open(key, sub.sealedAuthorization, sealContext(sub.id, 'authorization')) : undefined,
  };
}

const describe = (r: PostResult) => (r.kind === 'response' ? `HTTP ${r.status}` : r.detail);

/** The next attempt of one job; the delivery's record counts its attempts. */
export async function attemptDelivery(job: DeliveryJob, options: DeliveryOptions = {}): Promise<DeliveryOutcome> {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? POST_TIMEOUT_MS;
  const policy = options.policy ?? { allowLoopback: config.webhooksAllowLoopback };
  const { workspaceId: ws, subscriptionId: subId, eventId } = job;

  const sub = await getWebhook(ws, subId);
  if (!sub) return { kind: 'dropped', reason: 'the subscription was deleted' };
  if (sub.status === 'paused') return { kind: 'dead', reason: 'the subscription is paused' };

  const claim = await claimDelivery(ws, subId, eventId, { leaseMs: timeoutMs + LEASE_MARGIN_MS, now: now() });
  if (claim.kind === 'finished') return { kind: 'duplicate' };
  if (claim.kind === 'busy') return { kind: 'retry', waitMs: timeoutMs + LEASE_MARGIN_MS, reason: 'another attempt of this delivery is under way' };
  const { attempt } = claim;

  const body = JSON.stringify({ data: job.payload });
  let result: PostResult;
  try {
    const url = checkUrl(sub.url, policy);
    const address = await resolveDestination(url, policy);
    const { signingSecret, authorization } = await secretsOf(sub);
    const headers = { ...signedHeaders(signingSecret, eventId, body, now()), ...(authorization ? { authorization } : {}) };
    result = await post({ url, address, headers, body, timeoutMs });
  } catch (err) {
    if (!(err instanceof DestinationRejected)) {
      // A fault of ours (table, secrets): let the attempt be tried again like any failure.
      await settleDelivery(ws, subId, eventId, { state: 'failed', attempt, detail: 'internal failure' });
      throw err;
    }
    result = { kind: 'failed', detail: `destination refused: ${err.detail}` };
  }

  if (result.kind === 'response' && result.status >= 200 && result.status < 300) {
    await settleDelivery(ws, subId, eventId, { state: 'delivered', attempt, detail: describe(result) });
    if (sub.failureStreak > 0) await clearFailureStreak(ws, subId);
    return { kind: 'delivered', attempt };
  }
  if (result.kind === 'response' && result.status === 410) {
    await settleDelivery(ws, subId, eventId, { state: 'dead', attempt, detail: describe(result) });
    await pauseWebhook(ws, subId);
    return { kind: 'dead', reason: 'the receiver answered 410 Gone; the subscription is paused', attempt };
  }
  const waitMs = nextWaitMs(attempt, {
    ...(options.random ? { random: options.random } : {}),
    retryAfterSeconds: result.kind === 'response' ? result.retryAfterSeconds : undefined,
    ...(options.scale !== undefined ? { scale: options.scale } : {}),
  });
  if (waitMs === undefined) {
    await settleDelivery(ws, subId, eventId, { state: 'dead', attempt, detail: describe(result) });
    const status = await recordDeadDelivery(ws, subId, PAUSE_AFTER_DEAD);
    return {
      kind: 'dead',
      reason: `gave up after ${attempt} attempts (last: ${describe(result)})${status === 'paused' ? '; the subscription is paused' : ''}`,
      attempt,
    };
  }
  await settleDelivery(ws, subId, eventId, { state: 'failed', attempt, detail: describe(result) });
  return { kind: 'retry', waitMs, reason: describe(result), attempt };
}
