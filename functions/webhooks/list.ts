// GET /v2/webhooks — the subscriptions the caller sees (an access token: its application's), oldest first; `pageCursor`, `limit`.
import { config } from '#lib/config.ts';
import { WebhookListResponse } from '#lib/domain/schemas/responses.ts';
import { WebhookListQuery } from '#lib/domain/schemas/webhooks.ts';
import { webhookView } from '#lib/domain/webhooks.ts';
import { subscriptionsAfter } from '#lib/events/subscriptions.ts';
import { authedApi } from '#lib/http/authenticated.ts';
import { pageOf, stringKey } from '#lib/http/pagination.ts';
import { principalOf } from '#lib/http/request.ts';
import * as routes from '#lib/routes.ts';

export const handler = authedApi(routes.listWebhooks, { query: WebhookListQuery, responses: { 200: WebhookListResponse } }, async (req, { query }) => {
  const page = await pageOf(req, query);
  const slice = await subscriptionsAfter(principalOf(req), stringKey(page.after), page.limit + 1);
  const body = await page.envelope(slice, (subscriptions) => subscriptions.map((subscription) => webhookView(config.baseUrl, subscription)));
  return { status: 200, body };
});
