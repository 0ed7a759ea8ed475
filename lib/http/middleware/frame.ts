// The request's frame, outermost of our middlewares: on the way in the request id, the request's
// logger and the budget; on the way out the JSON response (or, on a route whose response is `html`,
// the page), and on every response — success or the error @middy/http-error-handler rendered —
// X-Request-Id, Cache-Control and the request's own headers (rate-limit counters, CORS). Every
// response of a page route carries the page security headers its shell gives (lib/http/pages/page-shell.ts).
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '../../config.ts';
import { requestScope } from '../../deadline.ts';
import { log } from '../../log.ts';
import type { Route } from '../../routes.ts';
import type { PageShell } from '../pages/page-shell.ts';
import { headerMap, Query, requestIdOf, type ApiMiddleware, type ApiRequest, type ApiResponse, type ApiResult } from '../request.ts';

/**
 * Path parameters percent-decoded; one that is not valid percent-encoding stays as sent and is named,
 * for validate to refuse once the caller is known (an unauthenticated caller gets its 401 first).
 */
function decodeParams(raw: Record<string, string | undefined> | null): { params: Record<string, string>; undecodable?: string } {
  const params: Record<string, string> = {};
  let undecodable: string | undefined;
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (value === undefined) continue;
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      params[name] = value;
      undecodable ??= name;
    }
  }
  return undecodable === undefined ? { params } : { params, undecodable };
}

/** The headers every response carries; the response's own win over the request's defaults. */
function finish(response: ApiResponse, requestId: string, requestHeaders: Record<string, string>): ApiResponse {
  return { ...response, headers: { 'Cache-Control': 'no-store', ...requestHeaders, ...response.headers, 'X-Request-Id': requestId } };
}

function serialize(result: ApiResult, route?: Route): ApiResponse {
  const cookies = result.cookies?.length ? { multiValueHeaders: { 'Set-Cookie': result.cookies } } : {};
  if (result.body === undefined) return { statusCode: result.status, headers: { ...result.headers }, body: '', ...cookies };
  if (route?.response === 'html' && typeof result.body === 'string')
    return { statusCode: result.status, headers: { ...result.headers }, body: result.body, ...cookies };
  return { statusCode: result.status, headers: { 'Content-Type': 'application/json', ...result.headers }, body: JSON.stringify(result.body), ...cookies };
}

const newRequestId = (event: APIGatewayProxyEvent) => event.requestContext?.requestId || randomUUID();

/** `page`: the shell of a page route (lib/http/pages/page-shell.ts), absent on JSON routes. */
export function frame(route: Route, page?: PageShell): ApiMiddleware {
  return {
    before: (request) => {
      const { event, context } = request;
      const requestId = newRequestId(event);
      // Until the invocation ends (lib/http/pipeline.ts clears them).
      log.appendKeys({ requestId, operationId: route.operationId });
      const { headers, repeated } = headerMap(event);
      const api: ApiRequest = {
        event,
        context,
        route,
        requestId,
        params: {},
        query: new Query(event),
        headers,
        repeatedHeaders: repeated,
        principal: undefined,
        preread: undefined,
        body: undefined,
        rawBody: undefined,
        input: { params: {}, query: {}, body: undefined },
        log,
        responseHeaders: {},
      };
      context.api = api;
      // The request's deadline (lib/http/pipeline.ts set its scope): Middy's early timeout answers 408 at it.
      const deadline = requestScope()?.deadline ?? Date.now() + config.requestTimeoutMs;
      context.getRemainingTimeInMillis = () => Math.max(1, deadline - Date.now());
      const { params, undecodable } = decodeParams(event.pathParameters);
      api.params = params;
      api.undecodableParam = undecodable;
    },
    after: (request) => {
      const api = request.context.api;
      // The core returned an ApiResult (lib/http/pipeline.ts); this is where it becomes the Lambda response.
      const headers = page ? { ...page.headers(), ...api.responseHeaders } : api.responseHeaders;
      request.response = finish(serialize(request.response as unknown as ApiResult, route), api.requestId, headers);
    },
    onError: (request) => {
      if (!request.response) return;
      const api = request.context.api as ApiRequest | undefined;
      const own = api?.responseHeaders ?? {};
      if (!page) {
        request.response = finish(request.response, requestIdOf(request), own);
        return;
      }
      // The renderer typed the page as text/plain: a page route's errors are pages.
      const pageHeaders = page.headers();
      const response = { ...request.response, headers: { ...request.response.headers, 'Content-Type': pageHeaders['Content-Type']! } };
      request.response = finish(response, requestIdOf(request), { ...pageHeaders, ...own });
    },
  };
}
