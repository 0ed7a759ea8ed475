// lib/log.ts: the line layout, levels, the Lambda context and what an error becomes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log, requestLogger, setLogSink } from '#lib/log.ts';

let lines: Array<Record<string, unknown>>;
let previous: ReturnType<typeof setLogSink>;
beforeEach(() => {
  lines = [];
  previous = setLogSink((line) => lines.push(JSON.parse(line) as Record<string, unknown>));
  vi.stubEnv('LOG_LEVEL', 'info');
});
afterEach(() => {
  setLogSink(previous);
  vi.unstubAllEnvs();
});

describe('structured log lines', () => {
  it('a line holds level, time, message, service, the invocation (cold start only on the first), the trace id, then the keys', () => {
    vi.stubEnv('_X_AMZN_TRACE_ID', 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1');
    log.addContext({ functionName: 'fn', awsRequestId: 'inv-1' });
    const first = requestLogger({ requestId: 'r1', operationId: 'getEntity' });
    first.appendPersistentKeys({ workspaceId: 'ws-1' });
    first.info('request rejected', { status: 404 });
    log.addContext({ functionName: 'fn', awsRequestId: 'inv-2' });
    requestLogger({ requestId: 'r2' }).warn('second');
    expect(lines[0]).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      message: 'request rejected',
      service: 'pm-api',
      coldStart: true,
      functionName: 'fn',
      awsRequestId: 'inv-1',
      xrayTraceId: '1-5759e988-bd862e3fe1be46a994272793',
      requestId: 'r1',
      operationId: 'getEntity',
      workspaceId: 'ws-1',
      status: 404,
    });
    expect(lines[1]).toMatchObject({ level: 'warn', coldStart: false, awsRequestId: 'inv-2', requestId: 'r2' });
    expect(lines[1]).not.toHaveProperty('workspaceId');
  });

  it('an error logs its name, message, stack and cause; a repeated object once; a bigint as a string', () => {
    const cause = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const shared: Record<string, unknown> = { n: 1n };
    shared.self = shared;
    log.error('failed', { error: new Error('outer', { cause }), shared });
    const error = lines[0]!.error as Record<string, unknown>;
    expect(error).toMatchObject({ name: 'Error', message: 'outer', cause: { name: 'Error', message: 'socket hang up', code: 'ECONNRESET' } });
    expect(error.stack).toMatch(/log\.test\.ts/);
    expect(lines[0]!.shared).toEqual({ n: '1', self: '[Circular]' });
  });

  it("LOG_LEVEL is read when a request starts; silent logs nothing; Lambda's application log level wins", () => {
    vi.stubEnv('LOG_LEVEL', 'warn');
    const quiet = requestLogger({});
    vi.stubEnv('LOG_LEVEL', 'debug');
    quiet.info('dropped');
    quiet.warn('kept');
    vi.stubEnv('LOG_LEVEL', 'silent');
    log.error('dropped too');
    vi.stubEnv('LOG_LEVEL', 'debug');
    vi.stubEnv('AWS_LAMBDA_LOG_LEVEL', 'ERROR');
    log.warn("dropped by Lambda's level");
    log.error('kept by it');
    expect(lines.map((l) => l.message)).toEqual(['kept', 'kept by it']);
  });

  it('LOG_SAMPLE_RATE logs that share of requests at debug, and says so on their lines', () => {
    vi.stubEnv('LOG_SAMPLE_RATE', '1');
    requestLogger({}).debug('sampled');
    vi.stubEnv('LOG_SAMPLE_RATE', '0');
    requestLogger({}).debug('not sampled');
    expect(lines).toEqual([expect.objectContaining({ level: 'debug', message: 'sampled', sampleRate: 1 })]);
  });
});
