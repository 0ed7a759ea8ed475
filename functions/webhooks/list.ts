// GET /v2/webhooks — the subscriptions the caller sees (an access token: its application's), oldest first; `pageCursor`, `limit`.
import { config } from '#lib/config.ts';
import { webhookView } from '#lib/domain/webhooks.ts';
import { subscriptionsAfter } from '#lib/events/subscriptions.ts';
import { CURSOR_PARAM, pageOf, stringKey } from '#lib/http/pagination.ts';
import { api } from '#lib/http/pipeline.ts';
import { onlyQueryParams } from '#lib/http/query-params.ts';
import { principalOf } from '#lib/http/request.ts';

export const handler = api('listWebhooks', async (req) => {
  onlyQueryParams(req.query, [CURSOR_PARAM, 'limit']);
  const page = await pageOf(req);
  const rows = await subscriptionsAfter(principalOf(req), stringKey(page.after), page.limit + 1);
  const body = await page.envelope(rows, (row) => row.position, (items) => items.map((row) => webhookView(config.baseUrl, row.subscription)));
  return { status: 200, body };
});
