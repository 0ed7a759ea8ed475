// Per-token fixed one-second window, counted in the table so every function instance agrees.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../config.ts';
import { db, tableName } from '../../store/client.ts';
import { keys } from '../../store/keys.ts';
import { ApiError } from '../errors.ts';
import type { ApiMiddleware } from '../request.ts';

export function rateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const api = request.context.api;
      const limit = config.rateLimitPerSecond;
      if (!api.principal || limit === 0) return;
      const second = Math.floor(Date.now() / 1000);
      const { Attributes } = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.rateWindow(api.principal.tokenId, second),
          UpdateExpression: 'ADD n :one SET #ttl = if_not_exists(#ttl, :ttl)',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: { ':one': 1, ':ttl': second + 120 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const count = Number(Attributes?.n ?? 1);
      api.responseHeaders['X-RateLimit-Limit'] = String(limit);
      api.responseHeaders['X-RateLimit-Remaining'] = String(Math.max(0, limit - count));
      if (count > limit) {
        throw new ApiError('rate.limitExceeded', `More than ${limit} requests in one second with this token; retry after 1 second.`, {
          headers: { 'Retry-After': '1' },
        });
      }
    },
  };
}
