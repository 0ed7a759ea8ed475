// GET /v2/webhooks/{webhookId} — one subscription, its status included (never its secrets).
import { config } from '#lib/config.ts';
import { WebhookResponse } from '#lib/domain/schemas/responses.ts';
import { WebhookPath } from '#lib/domain/schemas/webhooks.ts';
import { webhookView } from '#lib/domain/webhooks.ts';
import { findSubscription } from '#lib/events/subscriptions.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(routes.getWebhook, { params: WebhookPath, responses: { 200: WebhookResponse } }, async (req, { params }) => {
  const subscription = await findSubscription(principalOf(req), params.webhookId);
  return { status: 200, body: { data: webhookView(config.baseUrl, subscription) } };
});
