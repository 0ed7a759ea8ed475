// DELETE /v2/webhooks/{webhookId} — no further notifications; deliveries still queued are dropped unsent.
import { WebhookPath } from '#lib/domain/schemas/webhooks.ts';
import { removeSubscription } from '#lib/events/subscriptions.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(routes.deleteWebhook, { params: WebhookPath, responses: { 204: null } }, async (req, { params }) => {
  await removeSubscription(principalOf(req), params.webhookId);
  return { status: 204 };
});
