// What the edge answers when a request never reaches a function: every API Gateway response type,
// in the service specification's error envelope, with the request id as `id` and in X-Request-Id (as the functions
// and the local gateway answer). Status and title come from lib/http/errors.ts, never retyped.
import { ResponseType, type GatewayResponse, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { EDGE_CORS_HEADERS } from '#lib/http/cors.ts';
import { EDGE_DETAILS, errorEnvelope } from '#lib/http/envelope.ts';
import { ERROR_TABLE, type ErrorCode } from '#lib/http/errors.ts';

interface EdgeResponse {
  type: ResponseType;
  code: ErrorCode;
  /** Defaults to the shared edge detail for the code. */
  detail?: string;
  headers?: Record<string, string>;
}

const RETRY_AFTER = { 'Retry-After': "'1'" };
const BEARER_CHALLENGE = { 'WWW-Authenticate': "'Bearer'" };

const GATEWAY_RESPONSES: EdgeResponse[] = [
  // A REST API answers an unknown path or method with "Missing Authentication Token" (403).
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, code: 'route.notFound' },
  { type: ResponseType.RESOURCE_NOT_FOUND, code: 'route.notFound' },
  // Stage throttling; the per-token limit inside the functions sends the same 429 and header.
  { type: ResponseType.THROTTLED, code: 'rate.limitExceeded', headers: RETRY_AFTER },
  { type: ResponseType.QUOTA_EXCEEDED, code: 'rate.limitExceeded', headers: RETRY_AFTER },
  // The integration timeout is set just past the request budget: the backstop for the function's own 408.
  { type: ResponseType.INTEGRATION_TIMEOUT, code: 'request.timeout' },
  { type: ResponseType.INTEGRATION_FAILURE, code: 'internal.serverError' },
  { type: ResponseType.REQUEST_TOO_LARGE, code: 'request.tooLarge' },
  { type: ResponseType.BAD_REQUEST_BODY, code: 'request.invalid' },
  { type: ResponseType.BAD_REQUEST_PARAMETERS, code: 'request.invalid' },
  // With compression on (infra/stack.ts), API Gateway decodes a gzip or deflate body itself and refuses other codings with this type.
  {
    type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
    code: 'request.malformed',
    detail: "The request's Content-Encoding is not one the API takes (gzip, deflate, identity), or its body is not encoded as it says.",
  },
  // Authentication happens in the functions; these types only arise if IAM auth or an authorizer is ever added.
  { type: ResponseType.UNAUTHORIZED, code: 'auth.invalid', headers: BEARER_CHALLENGE },
  { type: ResponseType.EXPIRED_TOKEN, code: 'auth.invalid', headers: BEARER_CHALLENGE },
  { type: ResponseType.INVALID_SIGNATURE, code: 'auth.invalid', headers: BEARER_CHALLENGE },
  { type: ResponseType.INVALID_API_KEY, code: 'auth.invalid', headers: BEARER_CHALLENGE },
  { type: ResponseType.ACCESS_DENIED, code: 'auth.accessDenied' },
  { type: ResponseType.WAF_FILTERED, code: 'auth.accessDenied' },
  { type: ResponseType.AUTHORIZER_FAILURE, code: 'internal.serverError' },
  { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, code: 'internal.serverError' },
  { type: ResponseType.API_CONFIGURATION_ERROR, code: 'internal.serverError' },
  // Whatever type API Gateway adds later falls back to these.
  { type: ResponseType.DEFAULT_4XX, code: 'request.invalid', detail: 'The request was rejected before reaching the service.' },
  { type: ResponseType.DEFAULT_5XX, code: 'internal.serverError' },
];

/** The gateway fills in `$context.requestId`; templates support only such simple substitution. */
const REQUEST_ID = '$context.requestId';

function edgeDetail(r: EdgeResponse): string {
  const detail = r.detail ?? (EDGE_DETAILS as Partial<Record<ErrorCode, string>>)[r.code];
  if (!detail) throw new Error(`No edge detail for ${r.code}`);
  // `$` would be read as a template variable.
  if (detail.includes('$')) throw new Error(`Edge detail for ${r.code} may not contain $`);
  return detail;
}

export function addGatewayResponses(api: RestApi): GatewayResponse[] {
  return GATEWAY_RESPONSES.map((r) =>
    api.addGatewayResponse(r.type.responseType, {
      type: r.type,
      statusCode: String(ERROR_TABLE[r.code].status),
      responseHeaders: {
        'X-Request-Id': 'context.requestId',
        'Cache-Control': "'no-store'",
        // Static values are quoted in a gateway response's header mapping.
        ...Object.fromEntries(Object.entries(EDGE_CORS_HEADERS).map(([name, value]) => [name, `'${value}'`])),
        ...r.headers,
      },
      templates: { 'application/json': JSON.stringify(errorEnvelope(REQUEST_ID, r.code, edgeDetail(r))) },
    }),
  );
}
