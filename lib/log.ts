// The service's logger: Powertools for AWS Lambda's Logger, one instance per function. JSON lines
// with level, message, timestamp, service, the Lambda context (cold start, function name, request
// id), the X-Ray trace id, then the keys. An API function's pipeline adds each invocation's context
// and the request's keys, and clears the keys when the invocation ends (lib/http/pipeline.ts).
// Never pass credentials or request bodies here.
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from './config.ts';

// The level is passed rather than left to Powertools' own reading of LOG_LEVEL, which takes only
// upper case; Lambda's application log level (AWS_LAMBDA_LOG_LEVEL) still wins over it, and
// POWERTOOLS_LOGGER_SAMPLE_RATE is Powertools' own.
export const log = new Logger({ serviceName: 'pm-api', logLevel: config.logLevel });
