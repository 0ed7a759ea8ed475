// Webhook subscriptions: the pure rules around them and their views. Their request and response
// shapes are lib/domain/schemas/webhooks.ts.
import type * as z from 'zod/mini';
import { eventResource, type EventType } from './events.ts';
import {
  type PAYLOAD_VERSION,
  WEBHOOK_TYPE,
  type WebhookReferenceResponse,
  type WebhookSubscription as WebhookSubscriptionSchema,
  type WEBHOOK_STATUSES,
} from './schemas/webhooks.ts';

export type { WebhookInput } from './schemas/webhooks.ts';

/** Subscriptions one workspace may hold: bounds the deliveries one change fans out to. */
export const MAX_SUBSCRIPTIONS = 100;

export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** A stored subscription as the API shows it (secrets are never part of it). */
export interface WebhookSubscription {
  id: string;
  name: string;
  events: EventType[];
  url: string;
  version: typeof PAYLOAD_VERSION;
  status: WebhookStatus;
  createdAt: string;
  /** The application whose access token created it; absent when an API token did. */
  createdByClient?: string;
}

/** Which resources a subscriber must be allowed to read to receive these events. */
export const resourcesRead = (events: readonly EventType[]): Array<'entities' | 'notes'> => [...new Set(events.map(eventResource))].sort();

export const webhookLink = (baseUrl: string, id: string) => `${baseUrl}/webhooks/${id}`;

export function webhookView(baseUrl: string, w: WebhookSubscription): z.output<typeof WebhookSubscriptionSchema> {
  return {
    id: w.id,
    type: WEBHOOK_TYPE,
    createdAt: w.createdAt,
    fields: {
      name: w.name,
      events: w.events.map((eventType) => ({ eventType })),
      notification: { url: w.url, version: w.version },
      status: w.status,
    },
    links: { self: webhookLink(baseUrl, w.id) },
  };
}

export function webhookReference(baseUrl: string, id: string, signingSecret: string): z.output<typeof WebhookReferenceResponse> {
  return { data: { id, type: WEBHOOK_TYPE, links: { self: webhookLink(baseUrl, id) }, signingSecret } };
}

/**
 * Who sees a subscription (Productboard's rule): an access token only those its own application
 * created; an API token all of the workspace's.
 */
export const visibleTo = (w: Pick<WebhookSubscription, 'createdByClient'>, caller: { clientId?: string | undefined }) =>
  caller.clientId === undefined || w.createdByClient === caller.clientId;
