// Runtime configuration, read from the environment on each access so tests and the local stack
// can set it before a handler first runs. Nothing in lib/ or functions/ knows where it runs.
const env = (name: string): string | undefined => {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : v;
};
const int = (name: string, fallback: number): number => {
  const v = env(name);
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
};
const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * Time a function gets past the request budget: it answers 408 at the budget, and Lambda's own
 * timeout (budget + this, set by infra/route-functions.ts) is only the last resort behind it. The
 * local gateway gives each invocation the same allowance.
 */
export const LAMBDA_EXTRA_MS = 2_000;

export const config = {
  get tableName(): string {
    return env('TABLE_NAME') ?? 'pm-api';
  },
  /** Set locally (DynamoDB Local); unset in Lambda. */
  get dynamodbEndpoint(): string | undefined {
    return env('DYNAMODB_ENDPOINT');
  },
  /** What DynamoDB Local is signed with (it takes any credentials). */
  localDynamodbCredentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  get region(): string {
    return env('AWS_REGION') ?? env('AWS_DEFAULT_REGION') ?? 'us-east-1';
  },
  /** {app_url}: the public address of the token host. From configuration, never from a Host header. */
  get appUrl(): string {
    return trimSlash(env('PUBLIC_APP_URL') ?? 'http://localhost:3000');
  },
  /** {base_url}: the public API address, ending with /v2. */
  get baseUrl(): string {
    return trimSlash(env('PUBLIC_BASE_URL') ?? `${this.appUrl}/v2`);
  },
  /**
   * Where people see records in a browser: the `html` links of entities, notes, members and teams
   * are `{web}/entities/{id}`, `{web}/notes/{id}`, `{web}/members/{id}`, `{web}/teams/{id}`. {app_url}, which serves those
   * pages to signed-in members (functions/pages/), unless PUBLIC_WEB_URL names another web
   * application that shows them.
   */
  get webUrl(): string {
    return trimSlash(env('PUBLIC_WEB_URL') ?? this.appUrl);
  },
  /** The API's and the web application's addresses, as the views take them (lib/domain/entity-view.ts). */
  get urls(): { base: string; web: string } {
    return { base: this.baseUrl, web: this.webUrl };
  },
  /** The MCP server's address (a resource indicator, RFC 8707, and its tokens' audience). */
  get mcpUrl(): string {
    return `${this.appUrl}/mcp`;
  },
  /** The token endpoint URL, which is also the only accepted assertion audience. */
  get tokenUrl(): string {
    return `${this.appUrl}/oauth2/token`;
  },
  /** Budget of one request before 408 request.timeout. */
  get requestTimeoutMs(): number {
    return int('REQUEST_TIMEOUT_MS', 10_000);
  },
  /**
   * How long an AWS call may wait for its answer to start, or stall midway, before the SDK gives the
   * attempt up (lib/aws-clients.ts); 5 s unless set. A request's deadline cuts a call off sooner. Raised
   * only for operator tools against a slow table (bench:restore's 100 000 notes on DynamoDB Local).
   */
  get awsRequestTimeoutMs(): number {
    return int('AWS_REQUEST_TIMEOUT_MS', 5_000);
  },
  /** Dynamic client registrations (RFC 7591) per source address per hour; 0 disables the limit. */
  get registrationsPerAddressPerHour(): number {
    return int('REGISTRATION_LIMIT_PER_HOUR', 20);
  },
  /** Requests per second per credential owner (lib/http/rate-limiter.ts); 0 disables the limit. */
  get rateLimitPerSecond(): number {
    return int('RATE_LIMIT_PER_SECOND', 50);
  },
  /** Local service key file (private signing key and secrets); deployed, see lib/auth/service-key.ts. */
  get serviceKeyFile(): string | undefined {
    return env('SERVICE_KEY_FILE');
  },
  /** POWERTOOLS_LOG_LEVEL, else LOG_LEVEL (Powertools' names), in either case; info by default (lib/log.ts). */
  get logLevel(): 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'critical' | 'silent' {
    const v = (env('POWERTOOLS_LOG_LEVEL') ?? env('LOG_LEVEL'))?.toLowerCase();
    return v === 'trace' || v === 'debug' || v === 'warn' || v === 'error' || v === 'critical' || v === 'silent' ? v : 'info';
  },

  // --- Pending work (lib/store/sweep.ts) ---
  /** Time the sweeper spends on one pending item before handing it back (its lease is this plus LAMBDA_EXTRA_MS). */
  get sweepChunkMs(): number {
    return int('SWEEP_CHUNK_MS', 20_000);
  },
  /** `npm start`'s sweeper: the pause between two runs (the deployed one runs on the stack's schedule). */
  get sweepIntervalMs(): number {
    return int('SWEEP_INTERVAL_MS', 5_000);
  },

  // --- Webhooks (lib/events/) ---
  /** Local development only (`npm start` sets it, the stack never does): http and loopback receivers are allowed. */
  get webhooksAllowLoopback(): boolean {
    return env('WEBHOOKS_ALLOW_LOOPBACK') === '1';
  },
  /**
   * The DNS servers webhook hosts are resolved with (`host` or `host:port`, comma-separated): the
   * system's (/etc/resolv.conf) unless set. Set by tests that answer names themselves; the stack never sets it.
   */
  get webhooksDnsServers(): string[] {
    return (env('WEBHOOKS_DNS_SERVERS') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  },
  /** Deployed: the SQS FIFO queue the stream function sends deliveries to. */
  get deliveryQueueUrl(): string | undefined {
    return env('DELIVERY_QUEUE_URL');
  },
  /** Deployed: where the delivery function puts deliveries it gives up. */
  get deadLetterQueueUrl(): string | undefined {
    return env('DELIVERY_DLQ_URL');
  },
};
