// The deployed service. The parent stack holds what everything shares — the single table, the
// service key and secret, the one REST API with its path resources, gateway responses, deployment
// and stage, the alarms and dashboard, the operators' outputs — and nests one stack per area of
// the route table (infra/route-areas.ts: functions and methods) and one for the workers, so that
// no template nears CloudFormation's quotas (docs/operations.md, "The stack's size").
// Everything route-specific comes from the route table, so a new row deploys without touching this file.
import { Aws, CfnOutput, Duration, RemovalPolicy, Size, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  EndpointType,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Resource,
  RestApi,
  SecurityPolicy,
  type IResource,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct, IConstruct } from 'constructs';
import { PREFLIGHT_PATH, type Route } from '#lib/routes.ts';
import { TABLE } from '#lib/store/table.ts';
import type { Worker } from '#lib/workers.ts';
import { deployApi } from './api-deployment.ts';
import { EventWorkers } from './event-workers.ts';
import { addGatewayResponses } from './gateway-responses.ts';
import { Monitoring } from './monitoring.ts';
import { RouteArea } from './route-area.ts';
import { AREAS, areaOf, areaOfPath, corsPathsOf } from './route-areas.ts';
import { ServicePublicKeys } from './service-public-keys.ts';
import type { Settings } from './settings.ts';

interface PmApiStackProps extends StackProps {
  settings: Settings;
  /** The route table (lib/routes.ts ROUTES): one function per row. */
  routes: readonly Route[];
  /** The worker table (lib/workers.ts WORKERS). */
  workers: readonly Worker[];
}

export class PmApiStack extends Stack {
  readonly table: ITable;
  readonly api: RestApi;
  /** One nested stack per area of the route table that has rows, in AREAS order. */
  readonly areas: RouteArea[];
  readonly events: EventWorkers;
  /** The custom resource that reads the token keys' public halves at deploy time. */
  readonly servicePublicKeys: ServicePublicKeys;

  constructor(scope: Construct, id: string, props: PmApiStackProps) {
    super(scope, id, props);
    const { settings, routes } = props;

    // Normally the stack owns the table; after a point-in-time restore it adopts the restored one
    // by name (context tableName) and the retained original stays untouched (docs/operations.md).
    this.table = settings.tableName
      ? Table.fromTableAttributes(this, 'AdoptedTable', { tableName: settings.tableName, tableStreamArn: settings.tableStreamArn, grantIndexPermissions: true })
      : createTable(this);

    // The token-signing key never leaves KMS. A new generation is a new key (rotation); the old
    // one is retained so tokens it signed keep verifying while listed in retiredServiceKeyArns.
    const serviceKey = new Key(this, `ServiceKey${settings.serviceKeyGeneration === 1 ? '' : settings.serviceKeyGeneration}`, {
      description: `pm-api ${settings.stage}: signs API and access tokens (ES256), generation ${settings.serviceKeyGeneration}`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const serviceSecret = new Secret(this, 'ServiceSecret', {
      description: `pm-api ${settings.stage}: secret the pagination cursor key and the webhook-secret sealing key are derived from`,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.api = new RestApi(this, 'Api', {
      restApiName: `pm-api-${settings.stage}`,
      description: 'Product-management API v2',
      endpointTypes: [EndpointType.REGIONAL],
      cloudWatchRole: settings.apiGatewayCloudWatchRole,
      // The account-wide setting outlives this stack: other APIs may log through the same role.
      ...(settings.apiGatewayCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      // With a custom domain the stage URL would be a second public address with other links.
      disableExecuteApiEndpoint: settings.domain !== undefined,
      minCompressionSize: Size.kibibytes(1),
      // The deployment and stage come after the area stacks' methods (infra/api-deployment.ts).
      deploy: false,
    });

    // Public URLs come from configuration: the custom domain, else the stage URL built from ids
    // (not api.url, which would make every function wait for the stage that waits for them).
    const appUrl = settings.domain
      ? `https://${settings.domain.name}`
      : `https://${this.api.restApiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}/${settings.stage}`;
    const publicUrls = { appUrl, baseUrl: `${appUrl}/v2` };

    this.servicePublicKeys = new ServicePublicKeys(this, 'ServicePublicKeys', { settings, serviceKey });
    const shared = { settings, table: this.table, serviceKey, servicePublicKeys: this.servicePublicKeys.value, serviceSecret, publicUrls };
    this.areas = AREAS.map((area) => ({ area, rows: routes.filter((route) => areaOf(route).id === area.id) }))
      .filter(({ rows }) => rows.length > 0)
      .map(({ area, rows }) => new RouteArea(this, area.id, { ...shared, area, routes: rows }));
    this.events = new EventWorkers(this, 'Events', { ...shared, workers: props.workers });

    // Every method goes into the area stack of its path, as lib/routes.ts lays each path out (PathLayout).
    const preflight = this.areas.flatMap((a) => a.functions).find(({ route }) => route.path === PREFLIGHT_PATH);
    if (!preflight) throw new Error(`The route table has no CORS preflight row (path ${PREFLIGHT_PATH})`);
    const corsPaths = corsPathsOf(routes);
    const integrationTimeout = Duration.millis(settings.requestTimeoutMs + 1_000);
    const target = { api: this.api, resourceFor: (path: string) => resourceFor(this.api.root, path), stageName: settings.stage, timeout: integrationTimeout };
    for (const area of this.areas)
      area.serve(
        target,
        routes,
        corsPaths.filter((path) => areaOfPath(path).id === area.area.id),
        preflight,
      );
    const gatewayResponses = addGatewayResponses(this.api);

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: settings.logRetention });
    const stage = deployApi(this.api, {
      routes: routes.map((route) => ({ route, area: areaOf(route).id, paths: route.path === PREFLIGHT_PATH ? corsPaths : [route.path] })),
      integrationTimeoutMs: integrationTimeout.toMilliseconds(),
      gatewayResponses,
      mockMethods: this.areas.flatMap((area) => area.refusals),
      nestedStacks: [...this.areas, this.events],
      stage: {
        stageName: settings.stage,
        throttlingRateLimit: settings.throttle.rateLimit,
        throttlingBurstLimit: settings.throttle.burstLimit,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            ip: AccessLogField.contextIdentitySourceIp(),
            requestTime: AccessLogField.contextRequestTime(),
            method: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            path: AccessLogField.contextPath(),
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            latencyMs: AccessLogField.contextResponseLatency(),
            integrationLatencyMs: AccessLogField.contextIntegrationLatency(),
            errorType: AccessLogField.contextErrorResponseType(),
          }),
        ),
        // Execution logs for errors only, and never request or response bodies (they carry tokens).
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
      },
    });

    if (settings.domain) {
      const domain = this.api.addDomainName('CustomDomain', {
        domainName: settings.domain.name,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', settings.domain.certificateArn),
        endpointType: EndpointType.REGIONAL,
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      new CfnOutput(this, 'CustomDomainTarget', {
        description: `Point ${settings.domain.name} (CNAME or alias) here`,
        value: domain.domainNameAliasDomainName,
      });
    }

    new Monitoring(this, 'Monitoring', {
      settings,
      stage,
      table: this.table,
      functions: [
        ...this.areas.flatMap((area) => area.functions.map(({ route, fn }) => ({ id: route.operationId, fn }))),
        ...this.events.functions.map(({ worker, fn }) => ({ id: worker.id, fn })),
      ],
      queues: [
        { id: 'WebhookDeadLetters', queue: this.events.deadLetters, description: 'Webhook deliveries were given up (dead-letter queue; docs/events.md).' },
        {
          id: 'StreamFailures',
          queue: this.events.streamFailures,
          description: 'Stream batches the event function could not handle: their events were not queued (docs/events.md).',
        },
      ],
      streamFunction: this.events.functions.find(({ worker }) => worker.source === 'tableStream')?.fn,
    });

    new CfnOutput(this, 'BaseUrl', { description: '{base_url}', value: publicUrls.baseUrl });
    new CfnOutput(this, 'AppUrl', { description: '{app_url}', value: publicUrls.appUrl });
    new CfnOutput(this, 'TableName', { description: 'The single table (admin CLI --table)', value: this.table.tableName });
    new CfnOutput(this, 'ServiceKeyArn', { description: 'Token-signing KMS key (admin CLI --kms-key-id)', value: serviceKey.keyArn });
    new CfnOutput(this, 'ServiceSecretArn', {
      description: 'Secret the cursor key and the webhook-secret sealing key are derived from',
      value: serviceSecret.secretArn,
    });
    new CfnOutput(this, 'WebhookDeadLettersUrl', {
      description: 'Webhook deliveries given up (docs/operations.md, "Dead letters")',
      value: this.events.deadLetters.queueUrl,
    });
    new CfnOutput(this, 'StreamFailuresUrl', {
      description: 'Batches of table-stream records the event function gave up on (docs/operations.md, "Dead letters")',
      value: this.events.streamFailures.queueUrl,
    });

    acknowledgeNagFindings(this, serviceSecret);
  }
}

/** The single table as lib/store/table.ts defines it, with the settings a production table needs. */
function createTable(scope: Construct): Table {
  const table = new Table(scope, 'Table', {
    partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    timeToLiveAttribute: TABLE.ttlAttribute,
    removalPolicy: RemovalPolicy.RETAIN,
    // Webhook events are derived from it; aggregates are still kept in the writing transaction.
    stream: StreamViewType[TABLE.stream],
  });
  for (const index of TABLE.globalIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
  }
  return table;
}

/** The resource for a route path, creating missing segments; refuses two parameter names at one level. */
function resourceFor(root: IResource, path: string): IResource {
  let resource = root;
  for (const segment of path.split('/').filter(Boolean)) {
    const existing = resource.getResource(segment);
    if (existing) {
      resource = existing;
      continue;
    }
    if (segment.startsWith('{')) {
      const sibling = resource.node.children.find((c): c is Resource => c instanceof Resource && /\/\{[^/]*\}$/.test(c.path));
      if (sibling) throw new Error(`${path}: API Gateway allows one path parameter per level, and ${sibling.path} already has one`);
    }
    resource = resource.addResource(segment);
  }
  return resource;
}

/**
 * cdk-nag AwsSolutions findings this design accepts, each with its reason (test/infra/nag.test.ts
 * runs the pack; anything new fails it until fixed or reasoned here).
 */
export const NAG_ACKNOWLEDGEMENTS = {
  api: [
    {
      id: 'AwsSolutions-APIG2',
      reason:
        'Each function validates its own request against the schemas of its route and answers 400 in the error envelope with source pointers; gateway request validators would answer in another shape.',
    },
  ],
  methods: [
    {
      id: 'AwsSolutions-APIG4',
      reason:
        'Authentication is the bearer-token check inside every function (lib/auth/bearer.ts) with scopes from lib/routes.ts; the token endpoint is public by the service specification. An authorizer would duplicate it and answer outside the envelope.',
    },
    {
      id: 'AwsSolutions-COG4',
      reason: 'Callers present API tokens and OAuth access tokens issued by this service itself, not Cognito user-pool identities.',
    },
  ],
  stage: [
    {
      id: 'AwsSolutions-APIG3',
      reason:
        'No WAF web ACL in this stack: stage throttling and the per-token rate limit bound abuse; an operator who needs WAF associates a web ACL with the stage (docs/operations.md).',
    },
  ],
  cloudWatchRole: [
    {
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: "The account-level role API Gateway writes access and execution logs with; AWS's managed policy for it grants only CloudWatch Logs actions.",
    },
  ],
  secret: [
    {
      id: 'AwsSolutions-SMG4',
      reason:
        'The secret derives the cursor and CSRF keys and the key that seals webhook subscriptions’ secrets in the table: a rotation makes every subscription undeliverable until it is recreated, so it is rotated only when compromised, by the documented manual procedure (docs/operations.md), never on a schedule by a rotation function.',
    },
  ],
  streamFailures: [
    {
      id: 'AwsSolutions-SQS3',
      reason:
        "This queue is itself a dead-letter store: the table stream's failure destination (records the event function gave up on), read by an operator and alarmed at one message; a queue behind it would only move the same records again.",
    },
  ],
  streamReader: [
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams has no resource-level permission, so the grant that lets the event source mapping read the table stream must name *; the stream reads themselves (DescribeStream, GetRecords, GetShardIterator) are limited to the table stream ARN.',
    },
  ],
  functions: [
    {
      id: 'AwsSolutions-L1',
      reason:
        'The runtime is pinned to nodejs22.x (docs/architecture.md, Decisions), the version the code and its dependencies are built and tested for; a newer runtime is a deliberate upgrade, not a drift.',
    },
  ],
} as const;

function acknowledgeNagFindings(stack: PmApiStack, serviceSecret: Secret): void {
  const ack = (scope: IConstruct | undefined, list: ReadonlyArray<{ id: string; reason: string }>) => {
    if (!scope) throw new Error('construct to acknowledge cdk-nag findings on is missing');
    for (const a of list) Validations.of(scope).acknowledge({ id: a.id, reason: a.reason });
  };
  ack(stack.api, NAG_ACKNOWLEDGEMENTS.api);
  for (const method of stack.areas.flatMap((area) => area.methods)) ack(method, NAG_ACKNOWLEDGEMENTS.methods);
  ack(stack.api.deploymentStage, NAG_ACKNOWLEDGEMENTS.stage);
  if (stack.api.node.tryFindChild('CloudWatchRole')) ack(stack.api.node.findChild('CloudWatchRole'), NAG_ACKNOWLEDGEMENTS.cloudWatchRole);
  ack(serviceSecret, NAG_ACKNOWLEDGEMENTS.secret);
  for (const area of stack.areas) ack(area, NAG_ACKNOWLEDGEMENTS.functions);
  ack(stack.events, NAG_ACKNOWLEDGEMENTS.functions);
  ack(stack.servicePublicKeys, NAG_ACKNOWLEDGEMENTS.functions);
  ack(stack.events.streamFailures, NAG_ACKNOWLEDGEMENTS.streamFailures);
  for (const { worker, fn } of stack.events.functions) if (worker.source === 'tableStream') ack(fn.role, NAG_ACKNOWLEDGEMENTS.streamReader);
}
