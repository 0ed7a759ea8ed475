// POST /v2/webhooks — subscribe an HTTPS URL to event types; the signing secret is in this answer only.
import { config } from '#lib/config.ts';
import { WebhookNotificationBody, WebhookReferenceResponse } from '#lib/domain/schemas/responses.ts';
import { CreateWebhookBody } from '#lib/domain/schemas/webhooks.ts';
import { webhookLink, webhookReference } from '#lib/domain/webhooks.ts';
import { createSubscription } from '#lib/events/subscription-create.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

/** What each subscribed event POSTs to the subscription's URL (lib/events/deliver.ts; docs/events.md). */
const notification = {
  name: 'webhookNotification',
  url: '{$request.body#/data/fields/notification/url}',
  summary: 'The notification POSTed for each subscribed event (docs/events.md)',
  headers: [
    { name: 'webhook-id', required: true, description: 'The event id: the same on every attempt', pattern: '^msg_[0-9a-f]{32}$' },
    { name: 'webhook-timestamp', required: true, description: 'Seconds since the epoch, of this attempt' },
    { name: 'webhook-signature', required: true, description: 'Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body">' },
    { name: 'authorization', required: false, description: 'The value given at creation in notification.headers.authorization' },
  ],
  body: WebhookNotificationBody,
  answers: { '2XX': 'Received', '4XX': 'Not received: retried with backoff (so is any other answer); 410 Gone pauses the subscription' },
};

export const handler = authedApi(
  routes.createWebhook,
  { body: CreateWebhookBody, responses: { 201: WebhookReferenceResponse }, callback: notification, headers: { idempotencyKey: true } },
  async (req, { body }) => {
    const { subscription, signingSecret } = await createSubscription(principalOf(req), body, req);
    return {
      status: 201,
      body: webhookReference(config.baseUrl, subscription.id, signingSecret),
      headers: { Location: webhookLink(config.baseUrl, subscription.id) },
    };
  },
);
