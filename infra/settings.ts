// Deployment options, read once from CDK context: `-c key=value`, or recorded in cdk.json's
// "context" under "stages" → the stage's name, so what one environment records (an adopted table, a
// key rotation, a domain) never reaches another; a `-c` option wins over the stage's record. Values
// from the command line arrive as strings, so every number is parsed and checked here; a bad
// value stops the synth with a message naming the option.
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

export interface Settings {
  /** Stage name: part of the stack name and of the default public URL. */
  stage: string;
  /** Adopt this existing table (e.g. one restored from PITR) instead of the stack's own. */
  tableName: string | undefined;
  /** The adopted table's stream (new and old images), which the webhook events are read from. */
  tableStreamArn: string | undefined;
  /** Custom domain for {app_url} (and {base_url} = {app_url}/v2), with its ACM certificate in the region. */
  domain: { name: string; certificateArn: string } | undefined;
  /** Where people see records in a browser (PUBLIC_WEB_URL: the `html` links); {app_url} when unset. */
  webUrl: string | undefined;
  throttle: { rateLimit: number; burstLimit: number };
  logRetention: RetentionDays;
  /** Request budget before 408 request.timeout (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Requests per second per credential owner (RATE_LIMIT_PER_SECOND); 0 disables. */
  rateLimitPerSecond: number;
  /** Dynamic client registrations per source address per hour (REGISTRATION_LIMIT_PER_HOUR); 0 disables. */
  registrationLimitPerHour: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Share of invocations (0–1) logged at debug level (POWERTOOLS_LOGGER_SAMPLE_RATE, Powertools' own); 0 sets nothing. */
  logSampleRate: number;
  lambdaMemoryMb: number;
  /** Bumping it creates a new service signing key (rotation; docs/operations.md). */
  serviceKeyGeneration: number;
  /** Retired service key ARNs whose tokens still verify during a rotation. */
  retiredServiceKeyArns: string[];
  /** Changing it recycles warm functions so they reload keys and the secret. */
  keyEpoch: string;
  /** Create the account-level role API Gateway needs for logs (false if the account already has one). */
  apiGatewayCloudWatchRole: boolean;
  alarms: { topicArn: string | undefined; serverErrorPercent: number; latencyP99Ms: number };
}

/**
 * Retired service keys a deploy keeps verifiable. Each key's public half (about 190 bytes as
 * lib/auth/service-public-keys.ts encodes it) goes into every function's environment, which Lambda
 * holds to 4 KB in all, and into Custom::ServicePublicKeys' answer, which CloudFormation holds to
 * 4 KB: the signing key and 8 retired ones take under half of either.
 */
export const MAX_RETIRED_SERVICE_KEYS = 8;

/** API Gateway's default integration timeout ceiling for REST APIs. */
const MAX_INTEGRATION_TIMEOUT_MS = 29_000;

const DEFAULTS = {
  stage: 'prod',
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  logRetentionDays: 30,
  requestTimeoutMs: 10_000,
  rateLimitPerSecond: 50,
  registrationLimitPerHour: 20,
  logLevel: 'info',
  lambdaMemoryMb: 1024,
  serverErrorPercent: 1,
  latencyP99Ms: 2_000,
} as const;

class SettingsError extends Error {}

/** The stage's record under context "stages" (cdk.json), checked to be an object; readSettings checks its keys. */
function stageRecord(node: Node, stage: string): Record<string, unknown> {
  const stages: unknown = node.tryGetContext('stages');
  if (stages === undefined || stages === null) return {};
  if (typeof stages !== 'object' || Array.isArray(stages)) throw new SettingsError('Context option stages must be an object of stage names');
  const record: unknown = (stages as Record<string, unknown>)[stage];
  if (record === undefined) return {};
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw new SettingsError(`Context option stages.${stage} must be an object of options`);
  return record as Record<string, unknown>;
}

export function readSettings(node: Node): Settings {
  const stageName: unknown = node.tryGetContext('stage');
  const recorded = typeof stageName === 'string' || stageName === undefined ? stageRecord(node, stageName || DEFAULTS.stage) : {};
  // A stage's record holds what the options below read, but never the stage itself.
  const read = new Set<string>();
  const raw = (key: string): unknown => {
    if (key === 'stage') return node.tryGetContext(key);
    read.add(key);
    return node.tryGetContext(key) ?? recorded[key];
  };
  const str = (key: string): string | undefined => {
    const v = raw(key);
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw new SettingsError(`Context option ${key} must be a string`);
    return v;
  };
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const v = raw(key);
    if (v === undefined || v === null || v === '') return fallback;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new SettingsError(`Context option ${key} must be an integer from ${min} to ${max}, not ${JSON.stringify(v)}`);
    return n;
  };
  const fraction = (key: string): number => {
    const v = raw(key);
    if (v === undefined || v === null || v === '') return 0;
    const n = typeof v === 'number' ? v : Number(v);
    if (!(n >= 0 && n <= 1)) throw new SettingsError(`Context option ${key} must be a number from 0 to 1, not ${JSON.stringify(v)}`);
    return n;
  };
  const bool = (key: string, fallback: boolean): boolean => {
    const v = raw(key);
    if (v === undefined || v === null || v === '') return fallback;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw new SettingsError(`Context option ${key} must be true or false`);
  };

  const stage = str('stage') ?? DEFAULTS.stage;
  if (!/^[A-Za-z0-9_]{1,64}$/.test(stage)) throw new SettingsError(`Context option stage must be letters, digits or _, not ${JSON.stringify(stage)}`);

  const domainName = str('domainName');
  const certificateArn = str('certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new SettingsError('Context options domainName and certificateArn go together');

  const webUrl = str('webUrl');
  if (webUrl !== undefined && !/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(webUrl))
    throw new SettingsError(`Context option webUrl must be an https URL without query or fragment, not ${JSON.stringify(webUrl)}`);

  const retentionDays = int('logRetentionDays', DEFAULTS.logRetentionDays, 1, 3653);
  const retentions = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');
  if (!retentions.includes(retentionDays)) {
    throw new SettingsError(`Context option logRetentionDays must be one of CloudWatch's periods (${retentions.join(', ')})`);
  }

  const logLevel = str('logLevel') ?? DEFAULTS.logLevel;
  if (logLevel !== 'debug' && logLevel !== 'info' && logLevel !== 'warn' && logLevel !== 'error') {
    throw new SettingsError('Context option logLevel must be debug, info, warn or error');
  }

  const retired = (str('retiredServiceKeyArns') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (retired.some((arn) => !/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/.test(arn))) {
    throw new SettingsError('Context option retiredServiceKeyArns must list KMS key ARNs (arn:aws:kms:region:account:key/id), comma-separated');
  }
  if (retired.length > MAX_RETIRED_SERVICE_KEYS) {
    throw new SettingsError(
      `Context option retiredServiceKeyArns lists ${retired.length} keys; at most ${MAX_RETIRED_SERVICE_KEYS}: every function's environment carries each key's public half`,
    );
  }
  const tableName = str('tableName');
  if (tableName !== undefined && !/^[A-Za-z0-9_.-]{3,255}$/.test(tableName)) throw new SettingsError('Context option tableName must be a DynamoDB table name');
  const tableStreamArn = str('tableStreamArn');
  if ((tableName === undefined) !== (tableStreamArn === undefined)) {
    throw new SettingsError(
      'Context options tableName and tableStreamArn go together: an adopted table needs its stream (NEW_AND_OLD_IMAGES) for the webhook events',
    );
  }
  if (tableStreamArn !== undefined && !/^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/[A-Za-z0-9_.-]+\/stream\/[0-9T:.-]+$/.test(tableStreamArn)) {
    throw new SettingsError('Context option tableStreamArn must be a DynamoDB stream ARN (arn:aws:dynamodb:region:account:table/name/stream/label)');
  }
  const settings: Settings = {
    stage,
    tableName,
    tableStreamArn,
    domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
    webUrl,
    throttle: {
      rateLimit: int('throttleRateLimit', DEFAULTS.throttleRateLimit, 1, 100_000),
      burstLimit: int('throttleBurstLimit', DEFAULTS.throttleBurstLimit, 1, 100_000),
    },
    logRetention: retentionDays,
    // The gateway's own timeout sits 1 s past the budget and must stay under its ceiling.
    requestTimeoutMs: int('requestTimeoutMs', DEFAULTS.requestTimeoutMs, 1_000, MAX_INTEGRATION_TIMEOUT_MS - 1_000),
    rateLimitPerSecond: int('rateLimitPerSecond', DEFAULTS.rateLimitPerSecond, 0, 100_000),
    registrationLimitPerHour: int('registrationLimitPerHour', DEFAULTS.registrationLimitPerHour, 0, 100_000),
    logLevel,
    logSampleRate: fraction('logSampleRate'),
    lambdaMemoryMb: int('lambdaMemoryMb', DEFAULTS.lambdaMemoryMb, 128, 10_240),
    serviceKeyGeneration: int('serviceKeyGeneration', 1, 1, 1_000),
    retiredServiceKeyArns: retired,
    keyEpoch: str('keyEpoch') ?? '0',
    apiGatewayCloudWatchRole: bool('apiGatewayCloudWatchRole', true),
    alarms: {
      topicArn: str('alarmTopicArn'),
      serverErrorPercent: int('alarmServerErrorPercent', DEFAULTS.serverErrorPercent, 1, 100),
      latencyP99Ms: int('alarmLatencyP99Ms', DEFAULTS.latencyP99Ms, 10, MAX_INTEGRATION_TIMEOUT_MS),
    },
  };
  // What the stage's record holds beyond the options read above is a slip (a misspelt option), never ignored.
  const unknown = Object.keys(recorded).filter((key) => !read.has(key));
  if (unknown.length) throw new SettingsError(`Context option stages.${stage} holds ${unknown.map((k) => `'${k}'`).join(', ')}, which is no option of a stage`);
  return settings;
}
