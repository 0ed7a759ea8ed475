// Structured JSON logs, one object per line: level, time, message, service, the Lambda context
// (cold start, function name, request id), the X-Ray trace id, then the caller's keys. The
// function's logger learns each invocation's context first (lib/http/pipeline.ts); each request
// logs through a child with the request's own keys, its level read from LOG_LEVEL when the request
// starts, and debug sampling (LOG_SAMPLE_RATE) decided per request. The same line layout
// Powertools' Logger gave, in about 2 KiB instead of its 21 (docs/performance.md, "Cold start").
// Never pass credentials or request bodies here.
import { config } from './config.ts';

type LogSink = (line: string) => void;
let sink: LogSink = (line) => process.stdout.write(line + '\n');

/** Replaces where log lines go (tests read them); returns the previous sink. */
export function setLogSink(next: LogSink): LogSink {
  const prev = sink;
  sink = next;
  return prev;
}

type Level = 'debug' | 'info' | 'warn' | 'error';
type Threshold = Level | 'silent';
const RANK: Record<Threshold, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

/** Lambda's application log level (AWS_LAMBDA_LOG_LEVEL), when configured, wins over ours, as it did under Powertools. */
function lambdaThreshold(): Threshold | undefined {
  const v = process.env.AWS_LAMBDA_LOG_LEVEL?.toLowerCase();
  if (v === 'trace' || v === 'debug') return 'debug';
  if (v === 'fatal' || v === 'error') return 'error';
  return v === 'info' || v === 'warn' ? v : undefined;
}

type LogAttributes = Record<string, unknown>;

interface LambdaContextFields {
  coldStart: boolean;
  functionName: string;
  awsRequestId: string;
}

/** The invocation's fields the function's logger adds to every line (and hands to its children). */
let lambda: LambdaContextFields | undefined;
let invocations = 0;

/** Errors as {name, message, stack, cause}, bigints as strings, a repeated object once. */
function replacer(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) {
      const { name, message, stack, cause } = value;
      const code = (value as { code?: unknown }).code;
      return { name, message, stack, ...(code !== undefined ? { code } : {}), ...(cause !== undefined ? { cause } : {}) };
    }
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) return '[Circular]';
      seen.add(value);
    }
    return value;
  };
}

/** The Root of Lambda's _X_AMZN_TRACE_ID ("Root=1-…;Parent=…;Sampled=1"), as Powertools reported it. */
function xrayTraceId(): string | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
  return header ? header.split(';')[0]!.replace('Root=', '') : undefined;
}

export class Logger {
  private readonly keys: LogAttributes;

  constructor(
    private readonly threshold: () => Threshold,
    keys: LogAttributes = {},
    private readonly sampleRate = 0,
    /** A child's copy of the invocation's context, taken when the request started. */
    private readonly context?: LambdaContextFields,
  ) {
    this.keys = { ...keys };
  }

  /** Sets the Lambda context of this invocation: the first one in this process is the cold start. */
  addContext(context: { functionName: string; awsRequestId: string }): void {
    lambda = { coldStart: invocations++ === 0, functionName: context.functionName, awsRequestId: context.awsRequestId };
  }

  /** Keys on every later line of this logger. */
  appendPersistentKeys(keys: LogAttributes): void {
    Object.assign(this.keys, keys);
  }

  debug(message: string, attributes?: LogAttributes): void {
    this.write('debug', message, attributes);
  }
  info(message: string, attributes?: LogAttributes): void {
    this.write('info', message, attributes);
  }
  warn(message: string, attributes?: LogAttributes): void {
    this.write('warn', message, attributes);
  }
  error(message: string, attributes?: LogAttributes): void {
    this.write('error', message, attributes);
  }

  private write(level: Level, message: string, attributes: LogAttributes | undefined): void {
    if (RANK[level] < RANK[lambdaThreshold() ?? this.threshold()]) return;
    const line = {
      level,
      time: new Date().toISOString(),
      message,
      service: SERVICE,
      ...(this.context ?? lambda),
      ...(this.sampleRate > 0 ? { sampleRate: this.sampleRate } : {}),
      xrayTraceId: xrayTraceId(),
      ...this.keys,
      ...attributes,
    };
    sink(JSON.stringify(line, replacer()));
  }
}

const SERVICE = 'pm-api';

/** The function's logger: the level as the environment says at each line; the Lambda context is added once per invocation. */
export const log = new Logger(() => config.logLevel);

/** A logger for one request: `keys` on every line, the level as the environment says now (debug for a sampled request). */
export function requestLogger(keys: LogAttributes): Logger {
  const rate = config.logSampleRate;
  const level: Threshold = rate > 0 && Math.random() < rate ? 'debug' : config.logLevel;
  return new Logger(() => level, keys, rate, lambda);
}
