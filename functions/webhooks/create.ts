// POST /v2/webhooks — subscribe an HTTPS URL to event types; the signing secret is in this answer only.
import { config } from '#lib/config.ts';
import { webhookLink, webhookReference } from '#lib/domain/webhooks.ts';
import { createSubscription } from '#lib/events/subscriptions.ts';
import { api } from '#lib/http/pipeline.ts';
import { onlyQueryParams } from '#lib/http/query-params.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('createWebhook', async (req) => {
  onlyQueryParams(req.query, []);
  const { subscription, signingSecret } = await createSubscription(principalOf(req), req.body);
  return { status: 201, body: webhookReference(config.baseUrl, subscription.id, signingSecret), headers: { Location: webhookLink(config.baseUrl, subscription.id) } };
});
