// Structured JSON logs, one object per line, written by Powertools for AWS Lambda's Logger. The
// function's logger carries the Lambda context and the cold-start flag (its Middy middleware runs
// first in lib/http/pipeline.ts); each request logs through a child with the request's own keys,
// its level read from LOG_LEVEL when the request starts, and debug sampling (LOG_SAMPLE_RATE)
// decided per request. Never pass credentials or request bodies here.
import { LogFormatter, Logger, LogItem } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions, LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';
import type { Context } from 'aws-lambda';
import { config } from './config.ts';

export type LogSink = (line: string) => void;
let sink: LogSink = (line) => process.stdout.write(line + '\n');

/** Replaces where log lines go (tests read them); returns the previous sink. */
export function setLogSink(next: LogSink): LogSink {
  const prev = sink;
  sink = next;
  return prev;
}

/** The service's line layout: lower-case level, time, message, then the Lambda context and our keys (camelCase throughout). */
class LineFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const lambda = attributes.lambdaContext;
    return new LogItem({
      attributes: {
        level: attributes.logLevel.toLowerCase(),
        time: this.formatTimestamp(attributes.timestamp),
        message: attributes.message,
        service: attributes.serviceName,
        ...(lambda ? { coldStart: lambda.coldStart, functionName: lambda.functionName, awsRequestId: lambda.awsRequestId } : {}),
        ...(attributes.sampleRateValue > 0 ? { sampleRate: attributes.sampleRateValue } : {}),
        xrayTraceId: attributes.xRayTraceId,
      },
    }).addAttributes(additional);
  }
}

export class ServiceLogger extends Logger {
  protected override createLogger(options?: ConstructorOptions): ServiceLogger {
    return new ServiceLogger(options);
  }

  /** One line to the sink (stdout unless a test replaced it), whatever the level. */
  protected override printLog(_level: number, log: LogItem): void {
    log.prepareForPrint();
    sink(JSON.stringify(log.getAttributes(), this.getJsonReplacer()));
  }

  /**
   * createChild hands a child its parent's Lambda context, which already says whether this
   * invocation is a cold start; without this, every child would report its own first use as one.
   */
  public override addContext(context: Context): void {
    const inherited = (context as Partial<{ coldStart: boolean }>).coldStart;
    if (inherited !== undefined) this.coldStart = inherited;
    super.addContext(context);
  }
}

/** The function's logger: the Lambda context is added to it once per invocation. */
export const log = new ServiceLogger({
  serviceName: 'pm-api',
  logLevel: config.logLevel,
  sampleRateValue: config.logSampleRate,
  logFormatter: new LineFormatter(),
});

export type { ServiceLogger as Logger };

/** A logger for one request: `keys` on every line, the level as the environment says now. */
export function requestLogger(keys: LogAttributes): ServiceLogger {
  return log.createChild({ logLevel: config.logLevel, persistentKeys: keys }) as ServiceLogger;
}
