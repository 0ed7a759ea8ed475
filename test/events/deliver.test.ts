// One delivery attempt (lib/events/deliver.ts) against DynamoDB Local and a real receiver: signed,
// effectively once, retried on the schedule, given up after the last attempt, pausing a
// subscription that keeps failing or answers 410, and checking the destination again each time.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, windowMs } from '#lib/domain/delivery-schedule.ts';
import { eventId } from '#lib/domain/events.ts';
import { parseInput } from '#lib/domain/input.ts';
import { CreateWebhookBody } from '#lib/domain/schemas/webhooks.ts';
import { attemptDelivery } from '#lib/events/deliver.ts';
import type { DeliveryJob } from '#lib/events/delivery-job.ts';
import { createSubscription } from '#lib/events/subscription-create.ts';
import { getItem } from '#lib/store/calls.ts';
import * as keys from '#lib/store/keys.ts';
import { tableName } from '#lib/store/table.ts';
import { deleteWebhook, getWebhook } from '#lib/store/webhooks.ts';
import { createWorkspace } from '#lib/store/workspaces.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { startDns, type TestDns } from '../support/dns.ts';

/** The delivery record of one (subscription, event), read raw: its state, attempts and last result. */
async function readDelivery(ws: string, subscriptionId: string, eventId: string) {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.webhookDelivery(ws, subscriptionId, eventId), ConsistentRead: true });
  return (
    Item && { state: Item.state as string, attempts: (Item.attempts as number | undefined) ?? 0, lastResult: (Item.lastResult as string | undefined) ?? '' }
  );
}

let receiver: Receiver;
let dns: TestDns;
beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
  receiver = await startReceiver();
  dns = await startDns();
});
afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
  await receiver.kill();
  await dns.close();
});
afterEach(() => {
  receiver.answerAlways(undefined);
  receiver.failNext(0);
});

const ALL_READ = new Set(['entities:read', 'notes:read']);

async function subscribed(options: { url?: string; authorization?: string } = {}) {
  const ws = (await createWorkspace('Deliveries')).id;
  const { subscription, signingSecret } = await createSubscription(
    { workspaceId: ws, scopes: ALL_READ },
    parseInput(
      CreateWebhookBody,
      {
        data: {
          fields: {
            name: 'hook',
            events: [{ eventType: 'note.created' }],
            notification: {
              url: options.url ?? receiver.url,
              version: 1,
              ...(options.authorization ? { headers: { authorization: options.authorization } } : {}),
            },
          },
        },
      },
      'body',
    ),
  );
  receiver.useSecret(signingSecret);
  return { ws, sub: subscription.id };
}

const job = (ws: string, sub: string): DeliveryJob => {
  const noteId = randomUUID();
  return {
    workspaceId: ws,
    subscriptionId: sub,
    eventId: eventId(`WS#${ws}\nNOTE#${noteId}\n1`, 'note.created'),
    orderingKey: noteId,
    payload: { id: noteId, eventType: 'note.created', links: { target: `http://localhost:3000/v2/notes/${noteId}` } },
  };
};

const sent = (j: DeliveryJob) => receiver.requests.filter((r) => r.webhookId === j.eventId);

/** A job's attempts while they fail, each counted by its delivery's record: the eighth's outcome. */
async function lastAttempt(j: DeliveryJob) {
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) expect(await attemptDelivery(j)).toMatchObject({ kind: 'retry', attempt });
  return attemptDelivery(j);
}

describe('a delivery attempt', () => {
  it('POSTs {data: payload} signed per Standard Webhooks, with the configured Authorization; a second attempt of the same message sends nothing', async () => {
    const { ws, sub } = await subscribed({ authorization: 'Bearer receiver-token' });
    const j = job(ws, sub);
    expect(await attemptDelivery(j)).toEqual({ kind: 'delivered', attempt: 1 });
    const [got] = sent(j);
    expect(got).toMatchObject({ status: 204, verified: true, webhookId: j.eventId, data: j.payload });
    expect(got!.headers).toMatchObject({ authorization: 'Bearer receiver-token', 'content-type': 'application/json', 'user-agent': 'pm-api-webhooks/1' });
    expect(Number(got!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(await attemptDelivery(j)).toEqual({ kind: 'duplicate' });
    expect(sent(j)).toHaveLength(1);
    expect(await readDelivery(ws, sub, j.eventId)).toEqual({ state: 'delivered', attempts: 1, lastResult: 'HTTP 204' });
  });

  it('two copies of one message at once (a redelivered SQS message) POST once', async () => {
    const { ws, sub } = await subscribed();
    const j = job(ws, sub);
    const outcomes = await Promise.all([attemptDelivery(j), attemptDelivery(j)]);
    const [first, second] = outcomes.map((o) => o.kind).sort();
    expect(first).toBe('delivered');
    expect(['duplicate', 'retry']).toContain(second);
    expect(sent(j)).toHaveLength(1);
  });

  it('a failure waits its turn of the schedule (full jitter in the window), then succeeds', async () => {
    const { ws, sub } = await subscribed();
    const j = job(ws, sub);
    receiver.failNext(1, 503);
    expect(await attemptDelivery(j, { random: () => 0.5, scale: 1 })).toEqual({ kind: 'retry', waitMs: windowMs(1) / 2, reason: 'HTTP 503', attempt: 1 });
    expect(await readDelivery(ws, sub, j.eventId)).toEqual({ state: 'failed', attempts: 1, lastResult: 'HTTP 503' });
    expect(await attemptDelivery(j)).toEqual({ kind: 'delivered', attempt: 2 });
    expect(sent(j).map((r) => r.status)).toEqual([503, 204]);
  });

  it('the last attempt failing is dead; three dead deliveries in a row pause the subscription; then nothing is sent', async () => {
    const { ws, sub } = await subscribed();
    receiver.answerAlways(500);
    const reasons: string[] = [];
    for (let i = 0; i < 3; i++) {
      const outcome = await lastAttempt(job(ws, sub));
      expect(outcome.kind).toBe('dead');
      reasons.push((outcome as { reason: string }).reason);
    }
    expect(reasons).toEqual([
      'gave up after 8 attempts (last: HTTP 500)',
      'gave up after 8 attempts (last: HTTP 500)',
      'gave up after 8 attempts (last: HTTP 500); the subscription is paused',
    ]);
    expect((await getWebhook(ws, sub))!.status).toBe('paused');
    receiver.answerAlways(undefined);
    const after = job(ws, sub);
    expect(await attemptDelivery(after)).toEqual({ kind: 'dead', reason: 'the subscription is paused' });
    expect(sent(after)).toHaveLength(0);
  });

  it('a success ends a run of dead deliveries: the count starts again', async () => {
    const { ws, sub } = await subscribed();
    receiver.answerAlways(500);
    await lastAttempt(job(ws, sub));
    await lastAttempt(job(ws, sub));
    receiver.answerAlways(undefined);
    expect(await attemptDelivery(job(ws, sub))).toEqual({ kind: 'delivered', attempt: 1 });
    receiver.answerAlways(500);
    await lastAttempt(job(ws, sub));
    expect((await getWebhook(ws, sub))!).toMatchObject({ status: 'active', failureStreak: 1 });
  });

  it('410 Gone pauses the subscription at once', async () => {
    const { ws, sub } = await subscribed();
    receiver.failNext(1, 410);
    expect(await attemptDelivery(job(ws, sub))).toEqual({ kind: 'dead', reason: 'the receiver answered 410 Gone; the subscription is paused', attempt: 1 });
    expect((await getWebhook(ws, sub))!.status).toBe('paused');
  });

  it('a deleted subscription drops its queued deliveries unsent', async () => {
    const { ws, sub } = await subscribed();
    const j = job(ws, sub);
    expect(await deleteWebhook(ws, sub)).toBe(true);
    expect(await attemptDelivery(j)).toEqual({ kind: 'dropped', reason: 'the subscription was deleted' });
    expect(sent(j)).toHaveLength(0);
  });

  it('the destination is checked again at delivery: a host that now resolves to a private address gets nothing', async () => {
    dns.answer('rebinding.example.com', ['93.184.216.34']);
    const { ws, sub } = await subscribed({ url: 'https://rebinding.example.com/pb' });
    dns.answer('rebinding.example.com', ['10.1.2.3']);
    const outcome = await attemptDelivery(job(ws, sub), { random: () => 0.5, scale: 1 });
    expect(outcome).toEqual({
      kind: 'retry',
      waitMs: 30_000,
      reason:
        "destination refused: The URL's host must be publicly reachable: rebinding.example.com resolves to 10.1.2.3, which is in 10.0.0.0/8 (Private-Use).",
      attempt: 1,
    });
  });
});
