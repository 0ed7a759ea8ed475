// Productboard's webhooks operations (subscriptions), as its documents define them.
import { idsOf, reads, writes, type Check } from './check.ts';
import type { components } from './generated/webhooks.ts';
import type { Probe } from './probe.ts';
import type { World } from './world.ts';

/** A public address as the receiver: no name to resolve, and the destination guard accepts it. */
const RECEIVER = 'https://93.184.216.34/hooks';

type EventType = components['schemas']['WebhookEventType'];

/** A createWebhook body: these events, to RECEIVER with an Authorization header. */
const subscription = (name: string, events: EventType[]) => ({
  body: {
    data: {
      fields: {
        name,
        events: events.map((eventType) => ({ eventType })),
        notification: { url: RECEIVER, version: 1 as const, headers: { authorization: 'Bearer receiver-secret' } },
      },
    },
  },
});

/** Subscribes to feature.created and note.created (a setup step), as `name`. */
async function subscribe(world: World, probe: Probe, name: string): Promise<string> {
  const created = await probe.setup('createWebhook', 201, world.pb.webhooks.POST('/webhooks', subscription(name, ['feature.created', 'note.created'])));
  world.names.set(created.data.id, name);
  return created.data.id;
}

const getWebhook = (world: World, webhookId: string) => world.pb.webhooks.GET('/webhooks/{webhookId}', { params: { path: { webhookId } } });

export const WEBHOOK_CHECKS: Check[] = [
  writes('createWebhook', '→ 201 with the reference; the subscription reads back with its events and URL, never the header', async ({ world, probe }) => {
    const created = await probe.reply(
      'createWebhook',
      201,
      world.pb.webhooks.POST('/webhooks', subscription('Feature changes', ['feature.updated', 'feature.created'])),
    );
    const id = created.data.id;
    probe.equal('reference', [created.data.type, created.data.links.self], ['webhook', `${world.app.baseUrl}/webhooks/${id}`]);
    const got = await probe.reply('getWebhook', 200, getWebhook(world, id));
    probe.equal(
      'name, events and notification',
      [got.data.fields.name, got.data.fields.events, got.data.fields.notification],
      ['Feature changes', [{ eventType: 'feature.updated' }, { eventType: 'feature.created' }], { url: RECEIVER, version: 1 }],
    );
  }),
  writes(
    'createWebhook.our-event-types',
    "our event types beyond Productboard's enum (customer-score.updated, product.deleted, component.deleted) are subscribed to like its own",
    async ({ world, probe }) => {
      // Not in Productboard's WebhookEventType: the generated type cannot name them.
      const ours = ['customer-score.updated', 'product.deleted', 'component.deleted'] as unknown as EventType[];
      const created = await probe.reply('createWebhook', 201, world.pb.webhooks.POST('/webhooks', subscription('Scores', [...ours, 'feature.created'])));
      const got = await probe.reply('getWebhook', 200, getWebhook(world, created.data.id));
      probe.equal(
        'events',
        got.data.fields.events.map((e) => e.eventType),
        ['customer-score.updated', 'product.deleted', 'component.deleted', 'feature.created'],
      );
      const list = await probe.reply('listWebhooks', 200, world.pb.webhooks.GET('/webhooks'));
      probe.same('subscriptions', idsOf(list), [created.data.id]);
    },
  ),
  writes('createWebhook.invalid-url', 'a receiver URL that is not https → 400 request.invalid at the URL; nothing made', async ({ world, probe }) => {
    await probe.refusal(
      'createWebhook',
      { status: 400, code: 'request.invalid', pointer: '/data/fields/notification/url' },
      world.pb.webhooks.POST('/webhooks', {
        body: {
          data: { fields: { name: 'Plain', events: [{ eventType: 'feature.created' }], notification: { url: 'http://93.184.216.34/hooks', version: 1 } } },
        },
      }),
    );
    const list = await probe.reply('listWebhooks', 200, world.pb.webhooks.GET('/webhooks'));
    probe.same('subscriptions', idsOf(list), []);
  }),
  writes('listWebhooks', "lists the workspace's subscriptions", async ({ world, probe }) => {
    const a = await subscribe(world, probe, 'A');
    const b = await subscribe(world, probe, 'B');
    const list = await probe.reply('listWebhooks', 200, world.pb.webhooks.GET('/webhooks'));
    probe.same('subscriptions', idsOf(list), [a, b]);
  }),
  reads('getWebhook.unknown', 'no such subscription → 404 resource.notFound', async ({ seed, probe }) => {
    await probe.refusal('getWebhook', { status: 404, code: 'resource.notFound' }, getWebhook(seed.world, '00000000-0000-4000-8000-000000000000'));
  }),
  writes('deleteWebhook', '→ 204; the subscription is gone (404) and off the list', async ({ world, probe }) => {
    const gone = await subscribe(world, probe, 'Gone');
    const kept = await subscribe(world, probe, 'Kept');
    await probe.reply('deleteWebhook', 204, world.pb.webhooks.DELETE('/webhooks/{webhookId}', { params: { path: { webhookId: gone } } }));
    await probe.refusal('getWebhook', { status: 404, code: 'resource.notFound' }, getWebhook(world, gone));
    const list = await probe.reply('listWebhooks', 200, world.pb.webhooks.GET('/webhooks'));
    probe.same('subscriptions', idsOf(list), [kept]);
  }),
];
