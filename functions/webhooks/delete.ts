// DELETE /v2/webhooks/{webhookId} — no further notifications; deliveries still queued are dropped unsent.
import { uuidParam } from '#lib/domain/input.ts';
import { removeSubscription } from '#lib/events/subscriptions.ts';
import { api } from '#lib/http/pipeline.ts';
import { onlyQueryParams } from '#lib/http/query-params.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('deleteWebhook', async (req) => {
  onlyQueryParams(req.query, []);
  await removeSubscription(principalOf(req), uuidParam(req.params.webhookId, 'webhookId'));
  return { status: 204 };
});
