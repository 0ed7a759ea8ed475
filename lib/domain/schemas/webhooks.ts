// Webhook subscriptions ({base_url}/webhooks; Productboard's webhooks document, v1 payloads): the
// create body, the answers and the notification POSTed to subscribers. Extensions: `fields.status`
// ("active" | "paused") and the create answer's `signingSecret`. The destination URL is judged
// apart (lib/events/destination.ts: it needs DNS).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedInt, checkedString, strictObject } from './build.ts';
import { DateTime, listOf, nonBlank, pageParameters, SelfLinks, Url, Uuid } from './common.ts';
import { EVENT_TYPES, isEventType, type EventType } from '../events.ts';

export const WEBHOOK_TYPE = 'webhook';
const MAX_WEBHOOK_NAME = 255;
const MAX_AUTHORIZATION = 2048;
const MAX_WEBHOOK_URL = 1024;
export const PAYLOAD_VERSION = 1;

export const WEBHOOK_STATUSES = ['active', 'paused'] as const;

// A header value: visible ASCII and inner spaces or tabs, no line breaks (they would inject headers).
// Checked by a refinement, whose refusal never quotes the value: it is the subscriber's credential.
const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/;

// A subscription's name, events and URL as a create gives them (a restored webhook record is held to them too).
// The name follows the rule of every other name: a visible character, kept as sent.
export const WebhookName = /* @__PURE__ */ (() => nonBlank(MAX_WEBHOOK_NAME))();
export const WebhookUrl = /* @__PURE__ */ (() => checkedString(z.maxLength(MAX_WEBHOOK_URL)))();

/** An event type this service produces, named once in a subscription. */
export const EventList = /* @__PURE__ */ (() =>
  z.pipe(
    checkedArray(strictObject({ eventType: z.string() }), z.minLength(1), z.maxLength(EVENT_TYPES.length)),
    z.transform((events, ctx): EventType[] => {
      const seen = new Set<EventType>();
      for (const [i, { eventType }] of events.entries()) {
        const path = [i, 'eventType'];
        if (!isEventType(eventType)) {
          ctx.issues.push({
            code: 'custom',
            path,
            input: eventType,
            message: `is '${eventType.slice(0, 100)}', which this service does not produce; supported: ${EVENT_TYPES.join(', ')}`,
          });
          return z.NEVER;
        }
        if (seen.has(eventType)) {
          ctx.issues.push({ code: 'custom', path, input: eventType, message: `is '${eventType}', which is listed twice` });
          return z.NEVER;
        }
        seen.add(eventType);
      }
      return [...seen];
    }),
  ))();

/** POST {base_url}/webhooks */
export const CreateWebhookBody = /* @__PURE__ */ (() =>
  doc(
    z.pipe(
      strictObject({
        data: strictObject({
          fields: strictObject({
            name: WebhookName,
            events: EventList,
            notification: strictObject({
              url: WebhookUrl,
              version: z.literal(PAYLOAD_VERSION),
              headers: z.optional(
                strictObject({
                  authorization: z.optional(
                    checkedString(
                      z.minLength(1),
                      z.maxLength(MAX_AUTHORIZATION),
                      z.refine((v) => HEADER_VALUE.test(v), 'must be one line of visible ASCII characters'),
                    ),
                  ),
                }),
              ),
            }),
          }),
        }),
      }),
      z.transform(({ data: { fields } }) => ({
        name: fields.name,
        events: fields.events,
        url: fields.notification.url,
        version: fields.notification.version,
        authorization: fields.notification.headers?.authorization,
      })),
    ),
    { id: 'CreateWebhookBody' },
  ))();

export type WebhookInput = z.output<typeof CreateWebhookBody>;

/** 201 answer to a create: Productboard's reference, plus the signing secret, shown this once. */
export const WebhookReferenceResponse = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({
        id: Uuid,
        type: z.literal(WEBHOOK_TYPE),
        links: SelfLinks,
        signingSecret: doc(z.string(), 'Standard Webhooks signing secret (whsec_…); shown only in this response'),
      }),
    }),
    { id: 'WebhookReferenceResponse' },
  ))();

export const WebhookSubscription = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: Uuid,
      type: z.literal(WEBHOOK_TYPE),
      createdAt: DateTime,
      fields: strictObject({
        name: z.string(),
        events: z.array(strictObject({ eventType: z.enum(EVENT_TYPES) })),
        notification: strictObject({ url: z.string(), version: z.literal(PAYLOAD_VERSION) }),
        status: doc(z.enum(WEBHOOK_STATUSES), 'paused: deliveries stopped after repeated failures; re-create the subscription to resume'),
      }),
      links: SelfLinks,
    }),
    { id: 'WebhookSubscription' },
  ))();

export const WebhookResponse = /* @__PURE__ */ (() => doc(strictObject({ data: WebhookSubscription }), { id: 'WebhookResponse' }))();
export const WebhookListResponse = /* @__PURE__ */ (() => doc(listOf(WebhookSubscription), { id: 'WebhookListResponse' }))();

/** The body POSTed to a subscriber (documented as the create operation's callback). */
export const WebhookNotificationBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({
        id: doc(
          z.optional(Uuid),
          'The entity or note that changed; absent on feature-release-assignment.updated and hierarchy-entity.custom-field-value.updated (links.target says what changed)',
        ),
        eventType: z.enum(EVENT_TYPES),
        links: z.record(z.string(), Url),
        updatedAttributes: z.optional(z.array(z.string())),
        score: doc(z.optional(strictObject({ old: checkedInt(z.minimum(0)), new: checkedInt(z.minimum(0)) })), 'customer-score.updated only'),
      }),
    }),
    { id: 'WebhookNotificationBody' },
  ))();

export const WebhookPath = /* @__PURE__ */ (() => strictObject({ webhookId: Uuid }))();
export const WebhookListQuery = /* @__PURE__ */ (() => strictObject(pageParameters))();
