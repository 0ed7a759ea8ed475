// The request's frame, outermost of our middlewares: on the way in the request id, the request's
// logger and the budget; on the way out the JSON response, and on every response — success or the
// error @middy/http-error-handler rendered — X-Request-Id, Cache-Control and the request's own
// headers (rate-limit counters).
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '../../config.ts';
import { requestLogger } from '../../log.ts';
import type { Route } from '../../routes.ts';
import { ApiError } from '../errors.ts';
import { headerMap, Query, requestIdOf, type ApiMiddleware, type ApiRequest, type ApiResponse, type ApiResult } from '../request.ts';

/** Lambda's own margin: answer before the function itself is killed. */
const LAMBDA_MARGIN_MS = 500;

function decodeParams(raw: Record<string, string | undefined> | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (value === undefined) continue;
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      throw new ApiError('request.invalid', `Path parameter '${name}' is not valid percent-encoding.`, { source: { parameter: name } });
    }
  }
  return out;
}

/** The headers every response carries; the response's own win over the request's defaults. */
function finish(response: ApiResponse, requestId: string, requestHeaders: Record<string, string>): ApiResponse {
  return { ...response, headers: { 'Cache-Control': 'no-store', ...requestHeaders, ...response.headers, 'X-Request-Id': requestId } };
}

export function serialize(result: ApiResult): ApiResponse {
  if (result.body === undefined) return { statusCode: result.status, headers: { ...result.headers }, body: '' };
  return { statusCode: result.status, headers: { 'Content-Type': 'application/json', ...result.headers }, body: JSON.stringify(result.body) };
}

const newRequestId = (event: APIGatewayProxyEvent) => event.requestContext?.requestId || randomUUID();

export function frame(route: Route): ApiMiddleware {
  return {
    before: (request) => {
      const { event, context } = request;
      const requestId = newRequestId(event);
      const api: ApiRequest = {
        event,
        context,
        route,
        requestId,
        params: {},
        query: new Query(event),
        headers: headerMap(event),
        principal: undefined,
        body: undefined,
        rawBody: undefined,
        log: requestLogger({ requestId, operationId: route.operationId }),
        responseHeaders: {},
      };
      context.api = api;
      // The request budget (408) counts from arrival; Lambda's own remaining time still bounds it.
      const deadline = Date.now() + config.requestTimeoutMs;
      const lambdaRemaining = context.getRemainingTimeInMillis?.bind(context);
      context.getRemainingTimeInMillis = () =>
        Math.max(1, Math.min(deadline - Date.now(), lambdaRemaining ? lambdaRemaining() - LAMBDA_MARGIN_MS : Infinity));
      api.params = decodeParams(event.pathParameters);
    },
    after: (request) => {
      const api = request.context.api;
      // The core returned an ApiResult (lib/http/pipeline.ts); this is where it becomes the Lambda response.
      request.response = finish(serialize(request.response as unknown as ApiResult), api.requestId, api.responseHeaders);
    },
    onError: (request) => {
      if (!request.response) return;
      const api = request.context.api as ApiRequest | undefined;
      request.response = finish(request.response, requestIdOf(request), api?.responseHeaders ?? {});
    },
  };
}
