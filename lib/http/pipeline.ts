// The one place that knows the middleware order. A handler module is
//   export const handler = api('getCustomerScore', async (req) => ({ status: 200, body }));
// and everything else — auth, scope, body kind — comes from its row in lib/routes.ts.
//
// Order (docs/architecture.md explains it in full). Middy runs `before` in the order of `.use`,
// and `after`/`onError` in reverse:
//   1. injectLambdaContext — outermost, so the function's logger knows the invocation before
//      anything logs (request loggers are its children);
//   2. frame — request id, request logger, budget; last out: X-Request-Id and the other common
//      headers on every response, success or rendered error;
//   3. auth — before anything reads the body or counts against a token;
//   4. rateLimit — needs the principal;
//   5. body — parsed only for callers who may call the route;
//   6. httpErrorHandler — the renderer; registered after every middleware that shapes responses,
//      as Middy's documentation asks, so its onError runs before theirs;
//   7. errorsAsHttp — registered after the renderer so its onError runs just before it: it only
//      turns the typed error into the HTTP error the renderer expects, and renders nothing itself.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { EDGE_DETAILS } from './envelope.ts';
import { ApiError } from './errors.ts';
import { auth } from './middleware/auth.ts';
import { body } from './middleware/body.ts';
import { errorsAsHttp } from './middleware/errors-as-http.ts';
import { frame } from './middleware/frame.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import type { ApiContext, ApiMiddleware, ApiRequest, ApiResponse, ApiResult } from './request.ts';
import { log } from '../log.ts';
import { routeById, type OperationId } from '../routes.ts';

export type Core = (req: ApiRequest) => Promise<ApiResult>;
export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<ApiResponse>;

export function api(operationId: OperationId, core: Core): LambdaHandler {
  const route = routeById(operationId);
  const handler = middy<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>(
    // The core answers an ApiResult; frame's `after` makes it the Lambda response.
    async (_event: APIGatewayProxyEvent, context: ApiContext) => (await core(context.api)) as unknown as ApiResponse,
    {
      // The frame middleware bounds getRemainingTimeInMillis by the request budget.
      timeoutEarlyInMillis: 1,
      timeoutEarlyResponse: () => {
        throw new ApiError('request.timeout', EDGE_DETAILS['request.timeout']);
      },
    },
  )
    // Never the event: it holds the bearer token and the body.
    .use(injectLambdaContext(log, { logEvent: false }) as ApiMiddleware)
    .use(frame(route))
    .use(auth(route))
    .use(rateLimit())
    .use(body(route))
    .use(httpErrorHandler({ logger: false }) as ApiMiddleware)
    .use(errorsAsHttp());
  return handler as unknown as LambdaHandler;
}
