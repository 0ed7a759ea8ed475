// One function per row of lib/routes.ts, each with only what its row asks for: read-only routes
// read the table (and may only bump rate-limit counters), write routes write it, and only routes
// that mint tokens may sign with the service key.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { BuildOptions } from 'esbuild';
import { SERVICE_KEY_ENV } from '#lib/auth/service-key-model.ts';
import { LAMBDA_EXTRA_MS } from '#lib/config.ts';
import { ROUTES, type Route } from '#lib/routes.ts';
import { RATE_LIMIT_KEY_PREFIX } from '#lib/store/keys.ts';
import { TABLE } from '#lib/store/table.ts';
import type { Settings } from './settings.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..');

/** Every bundle is ESM; bundled CommonJS dependencies still call require() for Node built-ins. */
const ESM_REQUIRE_BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** esbuild options shared by the stack and infra/bundle-sizes.ts, so the sizes printed are the deployed ones. */
export const BUNDLING = {
  format: OutputFormat.ESM,
  target: 'node22',
  minify: true,
  sourceMap: true,
  sourceMapMode: SourceMapMode.DEFAULT,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Bundle the AWS SDK too: the deployed code runs the versions the tests ran, not the runtime's.
  bundleAwsSDK: true,
  externalModules: [] as string[],
  banner: ESM_REQUIRE_BANNER,
  tsconfig: join(PROJECT_ROOT, 'tsconfig.json'),
} as const;

/** The same bundling as plain esbuild build options (bundle-sizes and the bundle test build with these). */
export const ESBUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLING.target,
  minify: BUNDLING.minify,
  mainFields: [...BUNDLING.mainFields],
  external: [...BUNDLING.externalModules],
  banner: { js: BUNDLING.banner },
  tsconfig: BUNDLING.tsconfig,
  logLevel: 'error',
};

export interface RouteFunctionsProps {
  settings: Settings;
  table: ITable;
  serviceKey: IKey;
  serviceSecret: ISecret;
  publicUrls: { appUrl: string; baseUrl: string };
}

export interface RouteFunction {
  route: Route;
  fn: NodejsFunction;
}

/** Construct ids: the operationId, which lib/routes.ts keeps unique. */
export class RouteFunctions extends Construct {
  readonly functions: RouteFunction[] = [];

  constructor(scope: Construct, id: string, props: RouteFunctionsProps) {
    super(scope, id);
    const { settings, table, serviceKey, serviceSecret, publicUrls } = props;

    const missing = ROUTES.filter((r) => !existsSync(join(PROJECT_ROOT, r.handler))).map((r) => `${r.operationId} → ${r.handler}`);
    if (missing.length > 0) throw new Error(`Handler modules named in lib/routes.ts do not exist:\n  ${missing.join('\n  ')}`);

    const environment: Record<string, string> = {
      TABLE_NAME: table.tableName,
      PUBLIC_APP_URL: publicUrls.appUrl,
      PUBLIC_BASE_URL: publicUrls.baseUrl,
      REQUEST_TIMEOUT_MS: String(settings.requestTimeoutMs),
      RATE_LIMIT_PER_SECOND: String(settings.rateLimitPerSecond),
      LOG_LEVEL: settings.logLevel,
      [SERVICE_KEY_ENV.kmsKeyId]: serviceKey.keyArn,
      [SERVICE_KEY_ENV.secretId]: serviceSecret.secretArn,
      // Changing it makes Lambda start fresh environments, which reload keys and the secret.
      SERVICE_KEY_EPOCH: settings.keyEpoch,
      NODE_OPTIONS: '--enable-source-maps',
    };
    if (settings.logSampleRate > 0) environment.LOG_SAMPLE_RATE = String(settings.logSampleRate);
    if (settings.retiredServiceKeyArns.length > 0) {
      environment[SERVICE_KEY_ENV.previousKmsKeyIds] = settings.retiredServiceKeyArns.join(',');
    }

    for (const route of ROUTES as readonly Route[]) {
      const logGroup = new LogGroup(this, `${route.operationId}Logs`, { retention: settings.logRetention });
      // An own role instead of the managed basic-execution policy: logs go to this group only.
      const role = new Role(this, `${route.operationId}Role`, {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: `${route.method} ${route.path}`,
      });
      logGroup.grantWrite(role);

      const fn = new NodejsFunction(this, route.operationId, {
        entry: join(PROJECT_ROOT, route.handler),
        handler: 'handler',
        description: `${route.method} ${route.path} (${route.operationId})`,
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: settings.lambdaMemoryMb,
        // The function answers 408 at the budget; Lambda's own limit is the last resort behind it.
        timeout: Duration.millis(settings.requestTimeoutMs + LAMBDA_EXTRA_MS),
        role,
        logGroup,
        loggingFormat: LoggingFormat.JSON,
        environment: { ...environment, ...(route.signs ? { [SERVICE_KEY_ENV.kmsSign]: '1' } : {}) },
        projectRoot: PROJECT_ROOT,
        depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
        bundling: { ...BUNDLING, externalModules: [...BUNDLING.externalModules], mainFields: [...BUNDLING.mainFields] },
      });

      grantTable(fn, table, route.table);
      serviceKey.grant(role, 'kms:GetPublicKey');
      if (route.signs) serviceKey.grant(role, 'kms:Sign');
      if (settings.retiredServiceKeyArns.length > 0) {
        role.addToPrincipalPolicy(new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: settings.retiredServiceKeyArns }));
      }
      serviceSecret.grantRead(role);
      this.functions.push({ route, fn });
    }
  }
}

/** Item reads (transactions and batches need the same actions); no Scan: nothing serves a request by scanning. */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

function grantTable(fn: NodejsFunction, table: ITable, access: Route['table']): void {
  // Indexes by name rather than index/*: they are the ones lib/store/table.ts declares.
  const indexArns = TABLE.globalIndexes.map((g) => `${table.tableArn}/index/${g.name}`);
  fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: TABLE_READ_ACTIONS, resources: [table.tableArn, ...indexArns] }));
  if (access === 'write') {
    fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: TABLE_WRITE_ACTIONS, resources: [table.tableArn] }));
    return;
  }
  // The rate limiter counts requests in the table, read-only routes included: they may update
  // items whose partition key starts with the rate-limit prefix, and nothing else.
  fn.addToRolePolicy(
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['dynamodb:UpdateItem'],
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_LIMIT_KEY_PREFIX}*`] } },
    }),
  );
}
