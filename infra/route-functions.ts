// One function per row of the route table it is given (an area's rows of lib/routes.ts), each
// with only what its row asks for: read-only routes read the table (and may only bump rate-limit
// counters), write routes write it, and only routes that mint tokens may sign with the service key.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SERVICE_KEY_ENV } from '#lib/auth/service-key-model.ts';
import { LAMBDA_EXTRA_MS } from '#lib/config.ts';
import type { Route } from '#lib/routes.ts';
import { RATE_LIMIT_KEY_PREFIX } from '#lib/store/keys.ts';
import { TABLE } from '#lib/store/table.ts';
import { PROJECT_ROOT } from './bundling.ts';
import { commonEnvironment, serviceFunction, serviceKeyEnvironment, serviceSecretEnvironment } from './service-function.ts';
import type { Settings } from './settings.ts';

export interface RouteFunctionsProps {
  settings: Settings;
  routes: readonly Route[];
  table: ITable;
  serviceKey: IKey;
  /** The keys' public halves, read at deploy time (infra/service-public-keys.ts). */
  servicePublicKeys: string;
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
    const { settings, routes, table, serviceKey, servicePublicKeys, serviceSecret, publicUrls } = props;

    const missing = routes.filter((r) => !existsSync(join(PROJECT_ROOT, r.handler))).map((r) => `${r.operationId} → ${r.handler}`);
    if (missing.length > 0) throw new Error(`Handler modules named in lib/routes.ts do not exist:\n  ${missing.join('\n  ')}`);

    const environment: Record<string, string> = {
      ...commonEnvironment(settings, table.tableName, publicUrls),
      REQUEST_TIMEOUT_MS: String(settings.requestTimeoutMs),
      RATE_LIMIT_PER_SECOND: String(settings.rateLimitPerSecond),
      REGISTRATION_LIMIT_PER_HOUR: String(settings.registrationLimitPerHour),
      ...serviceKeyEnvironment(settings, servicePublicKeys),
    };

    for (const route of routes) {
      const { fn, role } = serviceFunction(this, route.operationId, {
        settings,
        handler: route.handler,
        description: `${route.method} ${route.path} (${route.operationId})`,
        purpose: `${route.method} ${route.path}`,
        // The function answers 408 at the budget; Lambda's own limit is the last resort behind it.
        timeout: Duration.millis(settings.requestTimeoutMs + LAMBDA_EXTRA_MS),
        environment: {
          ...environment,
          ...(route.signs ? { [SERVICE_KEY_ENV.kmsKeyId]: serviceKey.keyArn } : {}),
          ...(route.secret ? serviceSecretEnvironment(settings, serviceSecret) : {}),
        },
      });

      // A route with no table access (the OpenAPI document) authenticates no one and pages nothing.
      if (route.table !== 'none') grantTable(fn, table, route.table);
      // Verifying needs no grant (the public keys are in the environment); signing is KMS Sign alone,
      // under the kid of the environment's first public key (lib/auth/service-jwt-signing.ts).
      if (route.signs) serviceKey.grant(role, 'kms:Sign');
      // The secret's read goes with its id: only where the row says so.
      if (route.secret) serviceSecret.grantRead(role);
      this.functions.push({ route, fn });
    }
  }
}

/** Item reads (batches need the same actions); no Scan: nothing serves a request by scanning. */
const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
/** IAM has no action for TransactWriteItems: it is allowed by the actions of the items it holds, a condition check's included. */
const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'];

function grantTable(fn: NodejsFunction, table: ITable, access: 'read' | 'write'): void {
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
