// One Lambda function of the service as every route and worker gets it: the stack's bundling,
// nodejs22.x on arm64, Powertools' JSON lines into its own log group, and its own role (instead of the managed
// basic-execution policy: logs go to this group only; every other grant is added by the caller).
import { join } from 'node:path';
import type { Duration } from 'aws-cdk-lib';
import { PolicyDocument, Role, ServicePrincipal, type AddToPrincipalPolicyResult, type PolicyStatement, type RoleProps } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { SERVICE_KEY_ENV } from '#lib/auth/service-key-model.ts';
import { stackBundling, PROJECT_ROOT } from './bundling.ts';
import type { Settings } from './settings.ts';

/** The environment every function has: the table, the public URLs its links use, logging. */
export function commonEnvironment(settings: Settings, tableName: string, publicUrls: { appUrl: string; baseUrl: string }): Record<string, string> {
  return {
    TABLE_NAME: tableName,
    PUBLIC_APP_URL: publicUrls.appUrl,
    PUBLIC_BASE_URL: publicUrls.baseUrl,
    ...(settings.webUrl ? { PUBLIC_WEB_URL: settings.webUrl } : {}),
    LOG_LEVEL: settings.logLevel,
    ...(settings.logSampleRate > 0 ? { POWERTOOLS_LOGGER_SAMPLE_RATE: String(settings.logSampleRate) } : {}),
    // No NODE_OPTIONS=--enable-source-maps: Node would read and parse the bundle's map on every cold
    // start (a fifth of the baseline's module init, docs/performance.md "Cold start"). The map ships
    // beside the bundle; `npm run decode-stack` turns a logged stack into source positions.
  };
}

/** What a function that checks tokens verifies them with: the service keys' public halves (never private material). */
export function serviceKeyEnvironment(settings: Settings, servicePublicKeys: string): Record<string, string> {
  return {
    [SERVICE_KEY_ENV.publicKeys]: servicePublicKeys,
    // Changing it makes Lambda start fresh environments, which reload keys and the secret.
    SERVICE_KEY_EPOCH: settings.keyEpoch,
  };
}

/** Where a function that reads the service secret (lib/auth/service-secret.ts) finds it: its id, never its value. */
export function serviceSecretEnvironment(settings: Settings, serviceSecret: ISecret): Record<string, string> {
  return { [SERVICE_KEY_ENV.secretId]: serviceSecret.secretArn, SERVICE_KEY_EPOCH: settings.keyEpoch };
}

/** Name of the inline policy that holds a function's grants (not the old DefaultPolicy's name, so a deploy adds it before removing that one). */
const GRANTS_POLICY_NAME = 'grants';

/**
 * A role whose grants live in its own inline policy (AWS::IAM::Role `Policies`) instead of CDK's
 * DefaultPolicy, a separate AWS::IAM::Policy resource per role: every grant* and addToRolePolicy
 * call, the event sources' included, lands in the same document with the same statements, and one
 * resource per function is saved against CloudFormation's 500 per stack (docs/operations.md).
 * Whatever waited on the DefaultPolicy now waits on the role, which carries the policy.
 */
class InlineGrantsRole extends Role {
  private readonly inlineGrants: PolicyDocument;

  constructor(scope: Construct, id: string, props: Omit<RoleProps, 'inlinePolicies'>) {
    const grants = new PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { [GRANTS_POLICY_NAME]: grants } });
    this.inlineGrants = grants;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.inlineGrants.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

interface ServiceFunctionProps {
  settings: Settings;
  /** Handler module, relative to the project root. */
  handler: string;
  description: string;
  /** The role's description: what the function serves. */
  purpose: string;
  timeout: Duration;
  environment: Record<string, string>;
}

/** The function and its role under `scope`, with construct ids `id`, `${id}Role`, `${id}Logs`. */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): { fn: NodejsFunction; role: Role } {
  const logGroup = new LogGroup(scope, `${id}Logs`, { retention: props.settings.logRetention });
  // Never empty: the log grant below is its first statement.
  const role = new InlineGrantsRole(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: props.purpose });
  logGroup.grantWrite(role);
  const fn = new NodejsFunction(scope, id, {
    entry: join(PROJECT_ROOT, props.handler),
    handler: 'handler',
    description: props.description,
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.settings.lambdaMemoryMb,
    timeout: props.timeout,
    role,
    logGroup,
    // Lambda's Text format: Powertools writes each line as JSON itself (lib/log.ts). In the JSON format
    // Lambda would filter those lines at its application log level (INFO unless set) and hand the
    // level to Powertools, which then ignores LOG_LEVEL and the sample rate: the debug lines the
    // logLevel and logSampleRate settings ask for would never arrive (test/log/log.test.ts).
    loggingFormat: LoggingFormat.TEXT,
    environment: props.environment,
    projectRoot: PROJECT_ROOT,
    depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
    bundling: stackBundling(),
  });
  return { fn, role };
}
