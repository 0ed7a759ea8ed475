// The one place that knows the middleware order. A handler module is
//   export const handler = authedApi(routes.getCustomerScore, { params, responses: { 200: CustomerScoreResponse } },
//     async (req, { params }) => ({ status: 200, body }));
// (authedApi(), lib/http/authenticated.ts, for a route that authenticates; api() for one that does not.)
// Auth, scope and body kind come from its row in lib/routes.ts, which it passes (so its bundle holds
// that row, not the table); the declaration in the middle (lib/http/operation.ts) validates the
// request and is what the OpenAPI document says of it.
//
// Order (docs/architecture.md explains it in full). Middy runs `before` in the order of `.use`,
// and `after`/`onError` in reverse:
//   1. Powertools' injectLambdaContext: the Lambda context into the function's logger (lib/log.ts) —
//      outermost, so it knows the invocation before anything logs — and, last out, the request's keys cleared;
//   2. frame — request id, request logger, budget; last out: X-Request-Id and the other common
//      headers on every response, success or rendered error;
//   2b. cors — on routes browser clients may call: decides, on the way out, whether the request's
//      Origin may read the answer (it needs the principal, so it runs after auth on the way out); on
//      the routes that refuse foreign origins (the MCP server's), refuses on the way in an Origin that
//      names no origin;
//   3. auth — the bearer check, before anything reads the body or counts against a token;
//   3b. callerOrigin — on those routes, an Origin that is not the caller's own application's;
//   4. rateLimit — needs the principal;
//   4b. permit — the route's scope or admin requirement: after the budget, so a 403 is counted and
//      carries the X-RateLimit-* headers like any answer to an authenticated caller;
//   5. body — parsed only for callers who may call the route;
//   6. validate — preconditions the route does not honour refused, then path and query parameters and
//      the JSON body through the declared schemas;
//   7. httpErrorHandler — the renderer; registered after every middleware that shapes responses,
//      as Middy's documentation asks, so its onError runs before theirs;
//   8. errorsAsHttp — registered after the renderer so its onError runs just before it: it only
//      turns the typed error into the HTTP error the renderer expects, and renders nothing itself.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { EDGE_DETAILS } from './envelope.ts';
import { ApiError } from './errors.ts';
import type { auth as bearerCheck } from './middleware/auth.ts';
import { body } from './middleware/body.ts';
import { callerOrigin, cors } from './middleware/cors.ts';
import { errorsAsHttp } from './middleware/errors-as-http.ts';
import { frame } from './middleware/frame.ts';
import { declaredParameters, validate } from './middleware/validate.ts';
import type { Input, Operation, Result } from './operation.ts';
import type { PageShell } from './pages/page-shell.ts';
import type { PrefetchRecords } from './prefetch.ts';
import type { ApiContext, ApiMiddleware, ApiRequest, ApiResponse } from './request.ts';
import { config } from '../config.ts';
import { withinRequest } from '../deadline.ts';
import { REPLAYED_HEADER } from '../domain/idempotency.ts';
import { log } from '../log.ts';
import type { Route } from '../routes.ts';
import type { Claim } from '../store/idempotency.ts';

export type Core<O extends Operation = Operation> = (req: ApiRequest, input: Input<O>) => Promise<Result<O>>;
export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<ApiResponse>;
/** A route's Lambda handler, carrying the declaration the OpenAPI generator reads and the row it was made with. */
export type ApiHandler<O extends Operation = Operation> = LambdaHandler & { readonly operation: O; readonly route: Route };

/**
 * What only a route that authenticates runs: the bearer check, the request budget, the route's
 * permission and the Idempotency-Key claim. authedApi() (lib/http/authenticated.ts) hands them to api(), so the
 * functions of routes without authentication carry none of them; the route's row decides which of
 * the two its handler must be made by (checkDeclaration).
 */
export interface Authentication {
  auth: (route: Route, prefetch: Parameters<typeof bearerCheck>[1]) => ApiMiddleware | ApiMiddleware[];
  rateLimit: () => ApiMiddleware | ApiMiddleware[];
  permit: (route: Route) => ApiMiddleware | ApiMiddleware[];
  idempotencyClaim: (req: ApiRequest) => Claim | undefined;
}

/** A route with `auth: 'none'`: no principal, so nothing to check, count or claim. */
const NO_AUTHENTICATION: Authentication = { auth: () => [], rateLimit: () => [], permit: () => [], idempotencyClaim: () => undefined };

/** A declaration that does not fit its route is a programming error: the module refuses to load. */
function checkDeclaration(route: Route, operation: Operation, page: PageShell | undefined, authentication: Authentication | undefined): void {
  const problems: string[] = [];
  if ((route.body === 'json') !== (operation.body !== undefined))
    problems.push(`body: the route says ${route.body ?? 'none'}, the declaration ${operation.body ? 'has' : 'has no'} JSON body schema`);
  if ((route.body === 'form') !== (operation.form !== undefined))
    problems.push(`form: the route says ${route.body ?? 'none'}, the declaration ${operation.form ? 'has' : 'has no'} form schema`);
  const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
  const declared = [...declaredParameters(operation.params).keys()].sort();
  if (inPath.join() !== declared.join()) problems.push(`path parameters: the route has {${inPath.join(', ')}}, the declaration {${declared.join(', ')}}`);
  // A route that only refuses (GET /mcp: 405) declares what it answers as errors.
  if (Object.keys(operation.responses).length === 0 && !operation.errors?.length) problems.push('no success response is declared');
  if ((route.response === 'html') !== (operation.pages !== undefined))
    problems.push(`pages: the route answers ${route.response ?? 'json'}, the declaration ${operation.pages ? 'has' : 'has no'} HTML pages`);
  if ((route.response === 'html') !== (page !== undefined))
    problems.push(
      `page shell: the route answers ${route.response ?? 'json'}, its handler is made by ${page ? 'pageApi()' : 'api()'} (lib/http/pages/page-shell.ts)`,
    );
  if ((route.auth !== 'none') !== !!authentication)
    problems.push(`auth: the route says ${route.auth}, its handler is made by ${authentication ? 'authedApi()' : 'api()'}`);
  if (operation.headers?.idempotencyKey && !authentication) problems.push('Idempotency-Key without authentication');
  if (problems.length) throw new Error(`${route.operationId} (${route.handler}) does not fit its row in lib/routes.ts: ${problems.join('; ')}`);
}

/**
 * `options.prefetch`: the records the core will read first, named from the request as sent;
 * the bearer check reads them with the credential (lib/http/prefetch.ts). `options.page`: a page
 * route's shell; page routes are made by pageApi() (lib/http/pages/page-shell.ts).
 * `options.authentication`: given by authedApi() (lib/http/authenticated.ts), to the routes that authenticate only.
 */
export function api<const O extends Operation>(
  route: Route,
  operation: O,
  core: Core<O>,
  options: { prefetch?: PrefetchRecords; page?: PageShell; authentication?: Authentication } = {},
): ApiHandler<O> {
  const { page } = options;
  checkDeclaration(route, operation, page, options.authentication);
  const { auth, rateLimit, permit, idempotencyClaim } = options.authentication ?? NO_AUTHENTICATION;
  const handler = middy<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>(
    // The core answers an ApiResult; frame's `after` makes it the Lambda response.
    // The request carries its deadline, so the store spends no more than what is left (lib/deadline.ts),
    // and, for a create that takes Idempotency-Key, the key's claim (lib/store/idempotency.ts).
    async (_event: APIGatewayProxyEvent, context: ApiContext) => {
      const req = context.api;
      req.deadline = Date.now() + context.getRemainingTimeInMillis();
      const claim = (req.claim = operation.headers?.idempotencyKey ? idempotencyClaim(req) : undefined);
      // The key's record was read with the credential (lib/http/prefetch.ts).
      if (claim) claim.preread = req.preread;
      const result = await core(req, req.input as Input<O>);
      if (claim?.replayed) result.headers = { ...result.headers, [REPLAYED_HEADER]: 'true' };
      return result as unknown as ApiResponse;
    },
    {
      // The frame middleware bounds getRemainingTimeInMillis by the request budget.
      timeoutEarlyInMillis: 1,
      timeoutEarlyResponse: () => {
        throw new ApiError('request.timeout', EDGE_DETAILS['request.timeout']);
      },
    },
  )
    // Never the event (no logEvent): it holds the bearer token and the body. resetKeys: the keys frame
    // and auth add are this request's only.
    .use(injectLambdaContext(log, { resetKeys: true }) as ApiMiddleware)
    .use(frame(route, page))
    .use(cors(route))
    .use(auth(route, { records: options.prefetch, idempotent: operation.headers?.idempotencyKey }))
    .use(callerOrigin(route))
    .use(rateLimit())
    .use(permit(route))
    .use(body(route))
    .use(validate(operation, route))
    .use(httpErrorHandler({ logger: false }) as ApiMiddleware)
    .use(errorsAsHttp(page));
  // Each invocation is one request scope (lib/deadline.ts): every AWS call it makes, the middlewares'
  // included, carries its abort signal, which aborts at the deadline (the 408's) and once it is answered.
  const lambda: LambdaHandler = (event, context) => withinRequest(deadlineOf(context), timedOut, () => (handler as unknown as LambdaHandler)(event, context));
  return Object.assign(lambda, { operation, route });
}

/** Lambda's own margin: answer before the function itself is killed. */
const LAMBDA_MARGIN_MS = 500;

/** The request's deadline: its budget counts from arrival, and Lambda's own remaining time still bounds it. */
function deadlineOf(context: Context): number {
  const lambdaRemaining = context.getRemainingTimeInMillis?.() ?? Infinity;
  return Date.now() + Math.min(config.requestTimeoutMs, lambdaRemaining - LAMBDA_MARGIN_MS);
}

const timedOut = (cause?: unknown) => new ApiError('request.timeout', EDGE_DETAILS['request.timeout'], cause === undefined ? {} : { cause });
