// Deliveries end to end as `npm start` runs them: changes made through the API, read from DynamoDB
// Local's stream, fanned out to subscriptions, queued and POSTed to a real receiver that verifies
// every signature. The retry schedule is compressed (the workers' `retryScale`), not changed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { config } from '#lib/config.ts';
import { EVENT_TYPES, type EventType } from '#lib/domain/events.ts';
import { createSubscription } from '#lib/events/subscription-create.ts';
import { findSubscription } from '#lib/events/subscriptions.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { startWorkers } from './support.ts';
import { client } from '../score/helpers.ts';
import { newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let workers: Awaited<ReturnType<typeof startWorkers>>;
let receiver: Receiver;
/** Failed attempts that will be retried: `eventId attempt`, in order. */
const retried: string[] = [];
/** The retry schedule's compression, set by each test. */
let retryScale = 0.0002;

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
  app = await startApp();
  workers = await startWorkers({ onRetry: (job, attempt) => retried.push(`${job.eventId} ${attempt}`), retryScale: () => retryScale });
});

afterAll(async () => {
  await workers?.stop();
  await app?.close();
  delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
});

beforeEach(async () => {
  retryScale = 0.0002;
  receiver = await startReceiver();
  return () => receiver.kill();
});

async function subscribe(ws: TestWorkspace, events: readonly EventType[]) {
  const { subscription, signingSecret } = await createSubscription(
    { workspaceId: ws.workspaceId, scopes: new Set(['entities:read', 'notes:read']) },
    { name: 'test receiver', events: [...events], url: receiver.url, version: 1, authorization: undefined },
  );
  receiver.useSecret(signingSecret);
  return subscription.id;
}

const lines = (received: Array<{ eventType: string; data: Record<string, any> }>) =>
  received.map((r) => `${r.eventType} ${r.data.id}${r.data.score ? ` ${r.data.score.old}→${r.data.score.new}` : ''}`).sort();

describe('webhook deliveries (local workers, real stream, real receiver)', () => {
  it('must show: a note linked to a feature delivers insight.created once and customer-score.updated for the feature and each ancestor with old and new scores, signed; a killed receiver brought back gets what it missed, once', async () => {
    retryScale = 0.002;
    const ws = await newWorkspace();
    const api = client(app, ws.token);
    const product = await api.entity('product');
    const component = await api.entity('component', product);
    const feature = await api.entity('feature', component);
    const company = await api.entity('company');
    await workers.settled();
    await subscribe(ws, ['insight.created', 'customer-score.updated']);

    const note = await api.note({ customer: company, links: [[feature, 'critical']] });
    await workers.settled();
    const first = [`insight.created ${note}`, ...[feature, component, product].map((id) => `customer-score.updated ${id} 0→3`)];
    expect(lines(receiver.requests)).toEqual(first.sort());
    const insight = receiver.requests.find((r) => r.eventType === 'insight.created')!;
    expect(insight.data).toEqual({
      id: note,
      eventType: 'insight.created',
      links: { note: `${config.baseUrl}/notes/${note}`, feature: `${config.baseUrl}/entities/${feature}` },
    });
    const score = receiver.requests.find((r) => r.eventType === 'customer-score.updated' && r.data.id === component)!;
    expect(score.data).toEqual({
      id: component,
      eventType: 'customer-score.updated',
      links: { target: `${config.baseUrl}/entities/${component}/score` },
      updatedAttributes: ['score'],
      score: { old: 0, new: 3 },
    });
    expect(receiver.requests.every((r) => r.verified && r.status === 204)).toBe(true);

    // The receiver dies; an anonymous link adds 1 everywhere. Every delivery fails at least once, then it comes back.
    await receiver.kill();
    retried.length = 0;
    const anonymous = await api.note({ links: [[feature]] });
    const missed = [`insight.created ${anonymous}`, ...[feature, component, product].map((id) => `customer-score.updated ${id} 3→4`)];
    await receiver.waitFor(() => new Set(retried.map((r) => r.split(' ')[0])).size === missed.length, 20_000).catch(() => undefined);
    expect(new Set(retried.map((r) => r.split(' ')[0])).size).toBe(missed.length);
    await receiver.revive();
    await workers.settled();
    expect(lines(receiver.requests)).toEqual([...first, ...missed].sort());
    expect(receiver.requests.every((r) => r.verified && r.status === 204)).toBe(true);
    expect(new Set(receiver.requests.map((r) => r.webhookId)).size).toBe(receiver.requests.length);
    expect(workers.queue.deadLetters.filter((d) => d.body.workspaceId === ws.workspaceId)).toEqual([]);
  });

  it('every subscribed event type arrives exactly once for its change, signed; unsubscribed types never', async () => {
    const ws = await newWorkspace();
    await subscribe(
      ws,
      EVENT_TYPES.filter((t) => t !== 'customer-score.updated'),
    );
    const api = client(app, ws.token);
    const product = await api.entity('product');
    const feature = await api.entity('feature', product);
    await api.ok('PATCH', `/entities/${feature}`, { data: { fields: { name: 'Renamed' } } });
    const note = await api.note({ links: [[feature]] });
    await api.ok('PATCH', `/notes/${note}`, { data: { fields: { name: 'Edited' } } });
    await api.ok('DELETE', `/notes/${note}/relationships/link/${feature}`);
    await api.ok('DELETE', `/notes/${note}`);
    await api.ok('DELETE', `/entities/${product}`);
    await workers.settled();
    expect(lines(receiver.requests)).toEqual(
      [
        `product.created ${product}`,
        `feature.created ${feature}`,
        `feature.updated ${feature}`,
        `note.created ${note}`,
        `insight.created ${note}`,
        `note.updated ${note}`,
        `insight.deleted ${note}`,
        `note.deleted ${note}`,
        `product.deleted ${product}`,
        `feature.deleted ${feature}`,
      ].sort(),
    );
    expect(receiver.requests.every((r) => r.verified && r.status === 204)).toBe(true);
    expect(new Set(receiver.requests.map((r) => r.webhookId)).size).toBe(receiver.requests.length);
  });

  it('a receiver failing 3 times then recovering gets the event once', async () => {
    const ws = await newWorkspace();
    await subscribe(ws, ['product.created']);
    receiver.failNext(3, 503);
    const product = await client(app, ws.token).entity('product');
    await workers.settled();
    expect(receiver.requests.map((r) => [r.data.id, r.status])).toEqual([
      [product, 503],
      [product, 503],
      [product, 503],
      [product, 204],
    ]);
    expect(new Set(receiver.requests.map((r) => r.webhookId)).size).toBe(1);
  });

  it('a receiver that never recovers: each delivery ends in the dead-letter store after 8 attempts, and the subscription pauses', async () => {
    retryScale = 0.00002;
    const ws = await newWorkspace();
    const sub = await subscribe(ws, ['product.created']);
    receiver.answerAlways(500);
    const api = client(app, ws.token);
    const products = [await api.entity('product'), await api.entity('product'), await api.entity('product')];
    await workers.settled();
    const dead = workers.queue.deadLetters.filter((d) => d.body.subscriptionId === sub);
    expect(dead.map((d) => d.body.payload.id).sort()).toEqual([...products].sort());
    expect(dead.map((d) => d.attempts)).toEqual([8, 8, 8]);
    expect(receiver.requests).toHaveLength(24);
    expect((await findSubscription({ workspaceId: ws.workspaceId, scopes: new Set() }, sub)).status).toBe('paused');
    // Paused: a later change is not even queued for it.
    receiver.answerAlways(undefined);
    await api.entity('product');
    await workers.settled();
    expect(receiver.requests).toHaveLength(24);
  });

  it("another workspace's changes never reach a subscription", async () => {
    const mine = await newWorkspace();
    const theirs = await newWorkspace();
    await subscribe(mine, ['product.created']);
    await client(app, theirs.token).entity('product');
    const own = await client(app, mine.token).entity('product');
    await workers.settled();
    expect(receiver.requests.map((r) => r.data.id)).toEqual([own]);
  });
});
