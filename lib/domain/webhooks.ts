// Webhook subscriptions: the request and response shapes (Productboard's webhooks document, v1
// payloads), as zod schemas that validate, type and document them, and the pure rules around them.
// Extensions: `fields.status` ("active" | "paused") and the create response's `signingSecret`.
import { z } from 'zod';
import { firstIssue } from './applications.ts';
import { InvalidInput, pointer } from './errors.ts';
import { EVENT_TYPES, eventResource, isEventType, type EventType } from './events.ts';

export const WEBHOOK_TYPE = 'webhook';
export const MAX_WEBHOOK_NAME = 255;
export const MAX_AUTHORIZATION = 2048;
export const MAX_WEBHOOK_URL = 1024;
export const PAYLOAD_VERSION = 1;
/** Subscriptions one workspace may hold: bounds the deliveries one change fans out to. */
export const MAX_SUBSCRIPTIONS = 100;

export const WEBHOOK_STATUSES = ['active', 'paused'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** Event types of Productboard's document that this service never produces: refused by name, with the reason. */
const UNSUPPORTED_REASONS: Record<string, string> = {
  'hierarchy-entity.custom-field-value.updated': 'a custom field value change is reported as <type>.updated with the field id in updatedAttributes',
};

// A header value: visible ASCII and inner spaces or tabs, no line breaks (they would inject headers).
const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;

export const WebhookEventSchema = z.object({ eventType: z.string() }).strict();

export const WebhookNotificationSchema = z
  .object({
    url: z.string().max(MAX_WEBHOOK_URL),
    version: z.literal(PAYLOAD_VERSION),
    headers: z
      .object({
        authorization: z.string().min(1).max(MAX_AUTHORIZATION).regex(HEADER_VALUE, 'must be one line of visible ASCII characters').optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const WebhookFieldsSchema = z
  .object({
    name: z.string().trim().min(1).max(MAX_WEBHOOK_NAME),
    events: z.array(WebhookEventSchema).min(1).max(EVENT_TYPES.length),
    notification: WebhookNotificationSchema,
  })
  .strict();

/** POST {base_url}/webhooks */
export const CreateWebhookBody = z.object({ data: z.object({ fields: WebhookFieldsSchema }).strict() }).strict();

const selfLinks = z.object({ self: z.url() });

/** 201 answer to a create: Productboard's reference, plus the signing secret, shown this once. */
export const WebhookReferenceResponse = z.object({
  data: z.object({
    id: z.uuid(),
    type: z.literal(WEBHOOK_TYPE),
    links: selfLinks,
    signingSecret: z.string().describe('Standard Webhooks signing secret (whsec_…); shown only in this response'),
  }),
});

export const WebhookSubscriptionSchema = z.object({
  id: z.uuid(),
  type: z.literal(WEBHOOK_TYPE),
  createdAt: z.iso.datetime(),
  fields: z.object({
    name: z.string(),
    events: z.array(z.object({ eventType: z.enum(EVENT_TYPES) })),
    notification: z.object({ url: z.string(), version: z.literal(PAYLOAD_VERSION) }),
    status: z.enum(WEBHOOK_STATUSES).describe('paused: deliveries stopped after repeated failures; re-create the subscription to resume'),
  }),
  links: selfLinks,
});

export const WebhookResponse = z.object({ data: WebhookSubscriptionSchema });
export const WebhookListResponse = z.object({ data: z.array(WebhookSubscriptionSchema), links: z.object({ next: z.url().optional() }) });

/** The body POSTed to a subscriber. */
export const WebhookNotificationBody = z.object({
  data: z.object({
    id: z.uuid(),
    eventType: z.enum(EVENT_TYPES),
    links: z.record(z.string(), z.url()),
    updatedAttributes: z.array(z.string()).optional(),
    score: z.object({ old: z.number().int().min(0), new: z.number().int().min(0) }).optional().describe('customer-score.updated only'),
  }),
});

export interface WebhookInput {
  name: string;
  events: EventType[];
  url: string;
  version: typeof PAYLOAD_VERSION;
  authorization: string | undefined;
}

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

const FIELDS_PATH = ['data', 'fields'] as const;

/** A create body: shape, then event types (known, produced here, no duplicates). The URL is checked apart (DNS). */
export function parseWebhookInput(body: unknown): WebhookInput {
  const parsed = CreateWebhookBody.safeParse(body);
  if (!parsed.success) throw firstIssue(parsed.error);
  const { name, events, notification } = parsed.data.data.fields;
  const seen = new Set<EventType>();
  events.forEach(({ eventType }, i) => {
    const path = [...FIELDS_PATH, 'events', i, 'eventType'];
    if (!isEventType(eventType)) {
      const why = UNSUPPORTED_REASONS[eventType];
      throw new InvalidInput(
        `Event type '${eventType.slice(0, 100)}' is not produced by this service${why ? `: ${why}` : ''}. Supported: ${EVENT_TYPES.join(', ')}.`,
        pointer(path),
      );
    }
    if (seen.has(eventType)) throw new InvalidInput(`Event type '${eventType}' is listed twice.`, pointer(path));
    seen.add(eventType);
  });
  return { name, events: [...seen], url: notification.url, version: notification.version, authorization: notification.headers?.authorization };
}

/** Which resources a subscriber must be allowed to read to receive these events. */
export const resourcesRead = (events: readonly EventType[]): Array<'entities' | 'notes'> => [...new Set(events.map(eventResource))].sort();

export const webhookLink = (baseUrl: string, id: string) => `${baseUrl}/webhooks/${id}`;

export function webhookView(baseUrl: string, w: WebhookSubscription): z.infer<typeof WebhookSubscriptionSchema> {
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

export function webhookReference(baseUrl: string, id: string, signingSecret: string): z.infer<typeof WebhookReferenceResponse> {
  return { data: { id, type: WEBHOOK_TYPE, links: { self: webhookLink(baseUrl, id) }, signingSecret } };
}

/**
 * Who sees a subscription (Productboard's rule): an access token only those its own application
 * created; an API token all of the workspace's.
 */
export const visibleTo = (w: Pick<WebhookSubscription, 'createdByClient'>, caller: { clientId?: string | undefined }) =>
  caller.clientId === undefined || w.createdByClient === caller.clientId;
