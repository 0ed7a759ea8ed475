// The one place that knows the middleware order (design §3). A handler module is
//   export const handler = api('getCustomerScore', async (req) => ({ status: 200, body }));
// and everything else — auth, scope, body kind — comes from its row in lib/routes.ts.
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { routeById, type OperationId } from '../routes.ts';
import { ApiError } from './errors.ts';
import { EDGE_DETAILS } from './envelope.ts';
import { auth } from './middleware/auth.ts';
import { body } from './middleware/body.ts';
import { frame, type ApiContext } from './middleware/frame.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import type { ApiRequest, ApiResponse, ApiResult } from './request.ts';

export type Core = (req: ApiRequest) => Promise<ApiResult>;
export type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<ApiResponse>;

export interface PipelineOptions {
  /** Extra middlewares, run after body parsing and before the core (validation, fields selection). */
  use?: Array<MiddlewareObj<unknown, unknown, Error, ApiContext>>;
}

export function api(operationId: OperationId, core: Core, options: PipelineOptions = {}): LambdaHandler {
  const route = routeById(operationId);
  const handler = middy<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>(
    async (_event: APIGatewayProxyEvent, context: ApiContext) => (await core(context.api)) as unknown as ApiResponse,
    {
      // The frame middleware bounds getRemainingTimeInMillis by the request budget.
      timeoutEarlyInMillis: 1,
      timeoutEarlyResponse: () => {
        throw new ApiError('request.timeout', EDGE_DETAILS['request.timeout']);
      },
    },
  )
    .use(frame(route))
    .use(auth(route) as MiddlewareObj<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>)
    .use(rateLimit() as MiddlewareObj<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>)
    .use(body(route) as MiddlewareObj<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>);
  for (const m of options.use ?? []) handler.use(m as MiddlewareObj<APIGatewayProxyEvent, ApiResponse, Error, ApiContext>);
  return handler as unknown as LambdaHandler;
}
