// lib/log.ts: Powertools' Logger as the service configures it, read from what Powertools writes
// (stdout; warnings and errors to stderr). Each test imports the modules afresh, because the logger
// takes its level and sample rate from the environment when it is made, at module init.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { ResponseBody } from '#lib/domain/schemas/responses.ts';
import type { ApiRequest } from '#lib/http/request.ts';
import { getOpenApiDocument } from '#lib/routes.ts';

let lines: Array<Record<string, unknown>>;
beforeEach(() => {
  lines = [];
  const capture = (chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** lib/log.ts and the pipeline made afresh under `env` only (the suite's setup sets LOG_LEVEL=silent). */
async function freshModules(env: Record<string, string>) {
  vi.unstubAllEnvs();
  vi.stubEnv('LOG_LEVEL', '');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const [{ log }, { api }, { ApiError }] = await Promise.all([import('#lib/log.ts'), import('#lib/http/pipeline.ts'), import('#lib/http/errors.ts')]);
  return { log, api, ApiError };
}

const ANY_BODY: ResponseBody<z.ZodMiniUnknown> = { responseSchema: 'OpenApiDocument' };

/** An invocation of the real pipeline on a route without authentication, as Lambda would make it. */
function invoke(handler: (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>, requestId: string, invocationId: string) {
  const event = {
    httpMethod: 'GET',
    path: getOpenApiDocument.path,
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId },
  } as unknown as APIGatewayProxyEvent;
  const context = {
    functionName: 'pm-getOpenApiDocument',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:pm-getOpenApiDocument',
    memoryLimitInMB: '1024',
    awsRequestId: invocationId,
    getRemainingTimeInMillis: () => 10_000,
  } as Context;
  return handler(event, context);
}

describe('log lines through the API pipeline', () => {
  it("a line holds level, message, timestamp, service, the invocation's context (cold start on the first only), the trace id and the request's keys, which end with it", async () => {
    const { api, ApiError } = await freshModules({
      LOG_LEVEL: 'info',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
    });
    let calls = 0;
    const handler = api(getOpenApiDocument, { params: z.strictObject({}), query: z.looseObject({}), responses: { 200: ANY_BODY } }, async (req: ApiRequest) => {
      if (calls++ > 0) throw new ApiError('resource.notFound', 'Nothing here.');
      // As the bearer check does (lib/http/middleware/auth.ts).
      req.log.appendKeys({ workspaceId: 'ws-1' });
      req.log.info('served', { status: 200 });
      return { status: 200, body: {} };
    });
    await invoke(handler, 'r1', 'inv-1');
    await invoke(handler, 'r2', 'inv-2');
    const context = {
      service: 'pm-api',
      function_arn: 'arn:aws:lambda:eu-west-1:123456789012:function:pm-getOpenApiDocument',
      function_memory_size: '1024',
      function_name: 'pm-getOpenApiDocument',
      sampling_rate: 0,
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      operationId: 'getOpenApiDocument',
    };
    expect(lines).toEqual([
      {
        level: 'INFO',
        message: 'served',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        ...context,
        cold_start: true,
        function_request_id: 'inv-1',
        requestId: 'r1',
        workspaceId: 'ws-1',
        status: 200,
      },
      {
        level: 'INFO',
        message: 'request rejected',
        timestamp: expect.any(String),
        ...context,
        cold_start: false,
        function_request_id: 'inv-2',
        requestId: 'r2',
        code: 'resource.notFound',
        status: 404,
      },
    ]);
  });

  it('POWERTOOLS_LOGGER_SAMPLE_RATE logs that share of invocations at debug, and says so on their lines', async () => {
    const core = async (req: ApiRequest) => {
      req.log.debug('detail');
      return { status: 200 as const, body: {} };
    };
    const declaration = { params: z.strictObject({}), query: z.looseObject({}), responses: { 200: ANY_BODY } };
    const sampled = await freshModules({ LOG_LEVEL: 'info', POWERTOOLS_LOGGER_SAMPLE_RATE: '1' });
    await invoke(sampled.api(getOpenApiDocument, declaration, core), 'r1', 'inv-1');
    const unsampled = await freshModules({ LOG_LEVEL: 'info', POWERTOOLS_LOGGER_SAMPLE_RATE: '0' });
    await invoke(unsampled.api(getOpenApiDocument, declaration, core), 'r2', 'inv-2');
    expect(lines.filter((l) => l.message === 'detail')).toEqual([expect.objectContaining({ level: 'DEBUG', sampling_rate: 1, requestId: 'r1' })]);
  });

  it("under a Lambda application log level (AWS_LAMBDA_LOG_LEVEL) neither LOG_LEVEL nor the sample rate decides: why the stack's functions log in the Text format", async () => {
    const core = async (req: ApiRequest) => {
      req.log.debug('detail');
      return { status: 200 as const, body: {} };
    };
    const declaration = { params: z.strictObject({}), query: z.looseObject({}), responses: { 200: ANY_BODY } };
    const sampledUnderLambda = await freshModules({ LOG_LEVEL: 'info', POWERTOOLS_LOGGER_SAMPLE_RATE: '1', AWS_LAMBDA_LOG_LEVEL: 'INFO' });
    await invoke(sampledUnderLambda.api(getOpenApiDocument, declaration, core), 'r1', 'inv-1');
    const debugUnderLambda = await freshModules({ LOG_LEVEL: 'debug', AWS_LAMBDA_LOG_LEVEL: 'INFO' });
    await invoke(debugUnderLambda.api(getOpenApiDocument, declaration, core), 'r2', 'inv-2');
    expect(lines.filter((l) => l.message === 'detail')).toEqual([]);
  });
});

describe('what a line says', () => {
  it('an error logs its name, message, stack, cause and own fields; a bigint as a string; a circular reference is dropped', async () => {
    const { log } = await freshModules({ LOG_LEVEL: 'info' });
    const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const shared: Record<string, unknown> = { n: 1n };
    shared.self = shared;
    log.error('failed', { error: new Error('outer', { cause }), shared });
    const error = lines[0]!.error as Record<string, unknown>;
    expect(error).toMatchObject({ name: 'Error', message: 'outer', cause: { name: 'Error', message: 'socket hang up', code: 'ECONNRESET' } });
    expect(error.stack).toMatch(/log\.test\.ts/);
    expect(lines[0]!.shared).toEqual({ n: '1' });
  });

  it("LOG_LEVEL in either case; POWERTOOLS_LOG_LEVEL over it; silent logs nothing; Lambda's application log level wins over both", async () => {
    const say = (log: Awaited<ReturnType<typeof freshModules>>['log'], tag: string) => {
      log.debug(`${tag} debug`);
      log.info(`${tag} info`);
      log.warn(`${tag} warn`);
      log.error(`${tag} error`);
    };
    say((await freshModules({ LOG_LEVEL: 'warn' })).log, 'lower');
    say((await freshModules({ LOG_LEVEL: 'DEBUG' })).log, 'upper');
    say((await freshModules({ LOG_LEVEL: 'debug', POWERTOOLS_LOG_LEVEL: 'error' })).log, 'powertools');
    say((await freshModules({ LOG_LEVEL: 'silent' })).log, 'silent');
    say((await freshModules({ LOG_LEVEL: 'debug', AWS_LAMBDA_LOG_LEVEL: 'ERROR' })).log, 'lambda');
    say((await freshModules({})).log, 'unset');
    expect(lines.map((l) => l.message)).toEqual([
      'lower warn',
      'lower error',
      'upper debug',
      'upper info',
      'upper warn',
      'upper error',
      'powertools error',
      'lambda error',
      'unset info',
      'unset warn',
      'unset error',
    ]);
  });
});
