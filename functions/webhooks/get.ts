// GET /v2/webhooks/{webhookId} — one subscription, its status included (never its secrets).
import { config } from '#lib/config.ts';
import { uuidParam } from '#lib/domain/input.ts';
import { webhookView } from '#lib/domain/webhooks.ts';
import { findSubscription } from '#lib/events/subscriptions.ts';
import { api } from '#lib/http/pipeline.ts';
import { onlyQueryParams } from '#lib/http/query-params.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('getWebhook', async (req) => {
  onlyQueryParams(req.query, []);
  const subscription = await findSubscription(principalOf(req), uuidParam(req.params.webhookId, 'webhookId'));
  return { status: 200, body: { data: webhookView(config.baseUrl, subscription) } };
});
