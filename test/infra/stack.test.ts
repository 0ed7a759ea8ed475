import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { describe, expect, it, vi } from 'vitest';
import { corsPaths, PREFLIGHT_PATH, refusedWith, ROUTES, type Route } from '#lib/routes.ts';
import { TABLE } from '#lib/store/table.ts';
import { WORKERS } from '#lib/workers.ts';
import { grantsByRole, resourcesOf, refsIn, statementsOf, synth, type Statement } from './synth.ts';
import { areaOf, areaOfPath } from '../../infra/route-areas.ts';
import { readSettings } from '../../infra/settings.ts';

// Each synth takes seconds, more on a loaded machine; a slow synth is not a failure.
vi.setConfig({ testTimeout: 120_000 });

const { template, templates } = synth();
const resources = resourcesOf(template);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** The properties of a function resource the assertions read. */
interface FunctionProps {
  Runtime: unknown;
  Architectures: unknown;
  Handler: unknown;
  Timeout: unknown;
  Role: unknown;
  LoggingConfig: { LogFormat: unknown; LogGroup: unknown };
  Environment: { Variables: Record<string, unknown> };
}
type Metric = {
  Id: string;
  MetricStat?: { Metric: { MetricName: string; Namespace: string; Dimensions: Array<{ Name: string; Value: unknown }> }; Stat: string };
  Expression?: string;
};
/** The properties of an alarm resource the assertions read. */
interface AlarmProps {
  Metrics?: Metric[];
  Threshold?: unknown;
  ComparisonOperator?: unknown;
}
/** The concrete paths a row is served on: the preflight row's are every CORS path. */
const pathsOf = (route: Route): string[] => (route.path === PREFLIGHT_PATH ? corsPaths() : [route.path]);
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

/** Each route's function, found by the operationId its description ends with. */
const functions = ROUTES.map((route) => {
  const found = ofType('AWS::Lambda::Function').filter(([, r]) => String(r.Properties!.Description).endsWith(`(${route.operationId})`));
  expect(found, route.operationId).toHaveLength(1);
  const [logicalId, fn] = found[0]!;
  const roleId = [...refsIn(fn.Properties!.Role)][0]!;
  return { route, logicalId, roleId, props: fn.Properties as unknown as FunctionProps, statements: statementsOf(resources, roleId) };
});

/** The functions that touch the table (all but `table: 'none'` routes: the OpenAPI document). */
const tableFunctions = functions.filter((f) => f.route.table !== 'none');
const TABLE_ROUTES = ROUTES.filter((r) => r.table !== 'none').length;
/** The route functions of another synthesized template (found the same way). */
const routeFunctionsOf = (t: Template) =>
  Object.values(resourcesOf(t))
    .filter((r) => r.Type === 'AWS::Lambda::Function' && ROUTES.some((route) => String(r.Properties!.Description).endsWith(`(${route.operationId})`)))
    .map((r) => r.Properties as Record<string, any>);

/** The functions that serve requests and events (checked to be one per route and worker): all but the deploy-time reader of the public keys. */
const serviceFunctionsOf = (t: Template) => {
  const found = Object.values(resourcesOf(t))
    .filter((r) => r.Type === 'AWS::Lambda::Function' && !String(r.Properties!.Description).includes('Custom::ServicePublicKeys'))
    .map((r) => r.Properties as Record<string, any>);
  expect(found).toHaveLength(ROUTES.length + WORKERS.length);
  return found;
};

const tableId = ofType('AWS::DynamoDB::Table')[0]![0];
const keyId = ofType('AWS::KMS::Key')[0]![0];
const secretId = ofType('AWS::SecretsManager::Secret')[0]![0];
const [publicKeysId, publicKeysResource] = ofType('Custom::ServicePublicKeys')[0]!;

describe('one function per route (lib/routes.ts)', () => {
  it('the number of functions is the number of routes plus the workers of lib/workers.ts, and the reader of the public keys', () => {
    expect(ofType('AWS::Lambda::Function')).toHaveLength(ROUTES.length + WORKERS.length + 1);
    expect(new Set(functions.map((f) => f.logicalId)).size).toBe(ROUTES.length);
  });

  it("every function: nodejs22.x on arm64, ESM handler, Lambda's Text log format (no log-level filter of Lambda's) into its own log group with retention", () => {
    for (const { route, props } of functions) {
      expect({
        op: route.operationId,
        runtime: props.Runtime,
        arch: props.Architectures,
        handler: props.Handler,
        logging: Object.keys(props.LoggingConfig).sort(),
        format: props.LoggingConfig.LogFormat,
      }).toEqual({
        op: route.operationId,
        runtime: 'nodejs22.x',
        arch: ['arm64'],
        handler: 'index.handler',
        logging: ['LogFormat', 'LogGroup'],
        format: 'Text',
      });
      const logGroup = resources[[...refsIn(props.LoggingConfig.LogGroup)][0]!]!;
      expect(logGroup.Properties!.RetentionInDays).toBe(30);
    }
    expect(new Set(functions.map((f) => JSON.stringify(f.props.LoggingConfig.LogGroup))).size).toBe(ROUTES.length);
  });

  it('Lambda timeout = request budget + 2 s; the gateway gives up 1 s after the budget, before Lambda does', () => {
    for (const { props } of functions) expect(props.Timeout).toBe(12);
    const proxies = ofType('AWS::ApiGateway::Method').filter(([, m]) => (m.Properties!.Integration as { Type: string }).Type === 'AWS_PROXY');
    expect(proxies).toHaveLength(functions.flatMap(({ route }) => pathsOf(route)).length);
    for (const [, m] of proxies) expect((m.Properties!.Integration as { TimeoutInMillis: number }).TimeoutInMillis).toBe(11_000);
    const slow = synth({ requestTimeoutMs: '20000', registrationLimitPerHour: '0' });
    for (const fn of routeFunctionsOf(slow.template))
      expect([fn.Timeout, fn.Environment.Variables.REQUEST_TIMEOUT_MS, fn.Environment.Variables.REGISTRATION_LIMIT_PER_HOUR]).toEqual([22, '20000', '0']);
  });

  it('environment: table, public URLs, budget, rate limit, log level, the public keys, the signing key id where the row says `signs` and the secret id where it says `secret` — never a local endpoint or key file', () => {
    for (const { route, props } of functions) {
      const vars = props.Environment.Variables;
      expect(Object.keys(vars).sort(), route.operationId).toEqual(
        [
          'LOG_LEVEL',
          'PUBLIC_APP_URL',
          'PUBLIC_BASE_URL',
          'RATE_LIMIT_PER_SECOND',
          'REGISTRATION_LIMIT_PER_HOUR',
          'REQUEST_TIMEOUT_MS',
          'SERVICE_KEY_EPOCH',
          'SERVICE_PUBLIC_KEYS',
          'TABLE_NAME',
          ...(route.signs ? ['SERVICE_KMS_KEY_ID'] : []),
          ...(route.secret ? ['SERVICE_SECRET_ID'] : []),
        ].sort(),
      );
      if (route.secret) expect(vars.SERVICE_SECRET_ID).toEqual({ Ref: secretId });
      expect(vars.TABLE_NAME).toEqual({ Ref: tableId });
      expect(vars.SERVICE_PUBLIC_KEYS).toEqual({ 'Fn::GetAtt': [publicKeysId, 'Keys'] });
      if (route.signs) expect(vars.SERVICE_KMS_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
      expect([vars.REQUEST_TIMEOUT_MS, vars.RATE_LIMIT_PER_SECOND, vars.REGISTRATION_LIMIT_PER_HOUR, vars.LOG_LEVEL]).toEqual(['10000', '50', '20', 'info']);
    }
    // The sample rate under Powertools' own name (lib/log.ts), set only when asked for.
    const sampled = synth({ logLevel: 'warn', logSampleRate: '0.05' });
    for (const fn of routeFunctionsOf(sampled.template)) {
      expect([fn.Environment.Variables.LOG_LEVEL, fn.Environment.Variables.POWERTOOLS_LOGGER_SAMPLE_RATE]).toEqual(['warn', '0.05']);
    }
  });
});

describe('REST API: the resource tree and methods come from the route table', () => {
  /** The path of a method's resource: the REST API itself (its root resource) is `/`. */
  const pathOf = (resourceId: string): string => {
    const r = resources[resourceId]!;
    if (r.Type === 'AWS::ApiGateway::RestApi') return '/';
    const parent = [...refsIn(r.Properties!.ParentId)][0]!;
    const prefix = resources[parent]!.Type === 'AWS::ApiGateway::Resource' ? pathOf(parent) : '';
    return `${prefix}/${r.Properties!.PathPart as string}`;
  };

  it('every route is a proxy method on its path(s), integrated with its own function, and nothing else is; the CORS preflight is OPTIONS on every CORS path; every path has an ANY mock', () => {
    const methods = ofType('AWS::ApiGateway::Method').map(([, m]) => {
      const p = m.Properties as { HttpMethod: string; ResourceId: unknown; Integration: { Type: string; Uri: unknown } };
      const fnId = [...refsIn(p.Integration.Uri)].find((id) => resources[id]?.Type === 'AWS::Lambda::Function');
      return `${p.HttpMethod} ${pathOf([...refsIn(p.ResourceId)][0]!)} ${p.Integration.Type} ${fnId}`;
    });
    const expected = functions.flatMap(({ route, logicalId }) => pathsOf(route).map((path) => `${route.method} ${path} AWS_PROXY ${logicalId}`));
    const proxies = methods.filter((m) => !m.includes(' MOCK '));
    expect(proxies.sort()).toEqual(expected.sort());
    // The rest answer 405: an ANY on each path, but where a less specific path serves a method it lacks (that method falls through).
    const mocks = methods.filter((m) => m.includes(' MOCK ')).map((m) => m.replace(' MOCK undefined', ''));
    const paths = [...new Set(ROUTES.filter((route) => route.path !== PREFLIGHT_PATH).map((route) => route.path))];
    const fallingThrough = [
      '/v2/entities/search',
      '/v2/entities/configurations',
      '/v2/notes/search',
      '/v2/notes/configurations',
      '/v2/notes/{id}/relationships/link/{entityId}',
      '/v2/members/search',
      '/v2/teams/search',
    ];
    expect(mocks.sort()).toEqual(
      paths
        .filter((path) => !fallingThrough.includes(path))
        .map((path) => `ANY ${path}`)
        .sort(),
    );
    const preflight = functions.find((f) => f.route.operationId === 'corsPreflight')!;
    expect(methods.filter((m) => m.startsWith('OPTIONS ')).sort()).toEqual(
      corsPaths()
        .map((path) => `OPTIONS ${path} AWS_PROXY ${preflight.logicalId}`)
        .sort(),
    );
    expect(corsPaths()).toEqual(expect.arrayContaining(['/oauth/token', '/oauth/revoke', '/v2/entities/{id}/score']));
    expect(corsPaths().filter((p) => !p.startsWith('/v2/'))).toEqual([
      '/.well-known/oauth-authorization-server',
      '/oauth/token',
      '/oauth/register',
      '/oauth/revoke',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/mcp',
    ]);
  });

  it('the ANY of a path answers 405 in the envelope, its Allow as the local gateway gives it (that of a path whose requests fall through to it, for them), without a function', () => {
    const anys = ofType('AWS::ApiGateway::Method').filter(([, m]) => (m.Properties!.Integration as { Type: string }).Type === 'MOCK');
    const byPath = new Map(anys.map(([, m]) => [pathOf([...refsIn(m.Properties!.ResourceId)][0]!), m.Properties as Record<string, any>]));
    const envelope = (allow: string) =>
      JSON.stringify({
        id: '$context.requestId',
        errors: [{ code: 'request.methodNotAllowed', title: 'Method not allowed', detail: `This path does not take $context.httpMethod; it takes ${allow}.` }],
      });
    const answer = (allow: string, ...shadows: string[]) => ({
      Type: 'MOCK',
      PassthroughBehavior: 'WHEN_NO_MATCH',
      RequestTemplates: { 'application/json': '{"statusCode":405}' },
      IntegrationResponses: [
        {
          StatusCode: '405',
          ResponseParameters: {
            'method.response.header.Content-Type': "'application/json'",
            'method.response.header.Cache-Control': "'no-store'",
            'method.response.header.Access-Control-Allow-Origin': "'*'",
            'method.response.header.Access-Control-Expose-Headers':
              "'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, Idempotent-Replayed, WWW-Authenticate, x-amzn-Remapped-WWW-Authenticate'",
          },
          ResponseTemplates: {
            'application/json': [
              `#set($allow = "${allow}")`,
              ...shadows,
              '#set($context.responseOverride.header.Allow = $allow)',
              '#set($context.responseOverride.header.X-Request-Id = "$context.requestId")',
              envelope('$allow'),
            ].join('\n'),
          },
        },
      ],
    });
    expect(byPath.get('/v2/entities/{id}')!.Integration).toEqual(
      answer(
        'GET, PATCH, DELETE, OPTIONS',
        `#if($input.params().path.get('id') == "configurations")#set($allow = "GET, PATCH, DELETE, OPTIONS")#end`,
        `#if($input.params().path.get('id') == "search")#set($allow = "GET, POST, PATCH, DELETE, OPTIONS")#end`,
      ),
    );
    expect(byPath.get('/v2/notes/{id}/relationships/{targetType}/{targetId}')!.Integration).toEqual(
      answer('DELETE, OPTIONS', `#if($input.params().path.get('targetType') == "link")#set($allow = "PUT, DELETE, OPTIONS")#end`),
    );
    expect(byPath.get('/oauth/authorize')!.Integration).toEqual(answer('GET'));
    expect(byPath.get('/mcp')!.Integration).toEqual(answer('POST, OPTIONS'));
    expect(byPath.get('/v2/entities/{id}')!.MethodResponses).toEqual([
      {
        StatusCode: '405',
        ResponseParameters: Object.fromEntries(
          ['Allow', 'X-Request-Id', 'Content-Type', 'Cache-Control', 'Access-Control-Allow-Origin', 'Access-Control-Expose-Headers'].map((h) => [
            `method.response.header.${h}`,
            true,
          ]),
        ),
      },
    ]);
    // Every ANY's Allow is what the local gateway answers there (lib/routes.ts refusedWith), and so is
    // each branch's, on the path whose requests fall through to it: one branch per such path.
    let branches = 0;
    for (const [path, props] of byPath) {
      const template: string = props.Integration.IntegrationResponses[0].ResponseTemplates['application/json'];
      expect(/^#set\(\$allow = "([^"]*)"\)/.exec(template)![1], path).toBe(refusedWith('HEAD', path));
      for (const [, param, literal, allow] of template.matchAll(
        /#if\(\$input\.params\(\)\.path\.get\('(\w+)'\) == "([\w-]+)"\)#set\(\$allow = "([^"]*)"\)#end/g,
      )) {
        const fallingThrough = path.replace(`{${param}}`, literal!);
        expect(allow, fallingThrough).toBe(refusedWith('HEAD', fallingThrough));
        branches++;
      }
    }
    expect(branches).toBe(7);
  });

  it("each route's function, role, log group and permission live in its area's nested stack, and each method in its path's area (the preflight's OPTIONS too); the path tree stays in the parent", () => {
    for (const { route, logicalId, roleId, props } of functions) {
      const area = areaOf(route).id;
      const permission = ofType('AWS::Lambda::Permission').find(([, p]) => refsIn(p.Properties!.FunctionName).has(logicalId))![0];
      expect(
        [logicalId, roleId, [...refsIn(props.LoggingConfig.LogGroup)][0]!, permission].map((id) => id.split('/')[0]),
        route.operationId,
      ).toEqual([area, area, area, area]);
    }
    for (const [id, m] of ofType('AWS::ApiGateway::Method')) expect(id.split('/')[0]).toBe(areaOfPath(pathOf([...refsIn(m.Properties!.ResourceId)][0]!)).id);
    expect(ofType('AWS::ApiGateway::Resource').filter(([id]) => id.includes('/'))).toEqual([]);
    expect(new Set(functions.map((f) => areaOf(f.route).id))).toEqual(
      new Set(['Entities', 'Notes', 'NoteRelationships', 'Fields', 'Workspace', 'Webhooks', 'Applications', 'Auth', 'Pages', 'General']),
    );
    expect(areaOf(functions.find((f) => f.route.operationId === 'corsPreflight')!.route).id).toBe('General');
  });

  it('stage: throttling, JSON access logs, error-level execution logs without bodies', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'prod',
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
      MethodSettings: [
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          ThrottlingRateLimit: 100,
          ThrottlingBurstLimit: 200,
        }),
      ],
    });
    const custom = synth({ stage: 'staging', throttleRateLimit: '7', throttleBurstLimit: '9', logRetentionDays: '90' });
    custom.template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'staging',
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 })],
    });
    custom.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it('no template has a dependency cycle (functions and permissions read the API id and the stage name, never the Stage, which waits for the area stacks)', () => {
    expect(templates.length).toBeGreaterThan(1);
    for (const { prefix, template: t } of templates) {
      const own = t.Resources;
      const edges = new Map<string, Set<string>>();
      for (const [id, r] of Object.entries(own)) {
        const deps = refsIn(r.Properties);
        for (const d of [r.DependsOn ?? []].flat()) deps.add(d);
        edges.set(id, new Set([...deps].filter((d) => d in own)));
      }
      const state = new Map<string, 'visiting' | 'done'>();
      const cycle: string[] = [];
      const visit = (id: string): boolean => {
        if (state.get(id) === 'done') return false;
        if (state.get(id) === 'visiting') return true;
        state.set(id, 'visiting');
        for (const d of edges.get(id)!) if (visit(d)) return (cycle.push(id), true);
        state.set(id, 'done');
        return false;
      };
      expect(Object.keys(own).some(visit) ? cycle : [], prefix || 'parent').toEqual([]);
    }
  });
});

describe('least privilege per route', () => {
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
  const allow = (statements: Statement[], action: string) => statements.filter((s) => s.Effect === 'Allow' && actionsOf(s).includes(action));

  it('read-only routes read the table and its indexes, and may update only rate-limit partitions (RL#)', () => {
    const readers = functions.filter((f) => f.route.table === 'read');
    expect(readers.length).toBeGreaterThan(0);
    // The authorization code flow's pages that only look (the authorization request, discovery, preflights) write nothing.
    expect(readers.map((f) => f.route.operationId)).toEqual(expect.arrayContaining(['authorize', 'getAuthorizationServerMetadata', 'corsPreflight']));
    for (const { route, statements } of readers) {
      const ddb = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
      const unconditional = ddb
        .filter((s) => !s.Condition)
        .flatMap(actionsOf)
        .sort();
      expect(unconditional, route.operationId).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
      const conditional = ddb.filter((s) => s.Condition);
      expect(conditional, route.operationId).toEqual([
        { Effect: 'Allow', Action: 'dynamodb:UpdateItem', Resource: tableArn, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RL#*'] } } },
      ]);
    }
  });

  it('write routes may also put, update, delete and batch-write items of the table (not its indexes)', () => {
    for (const { route, statements } of functions.filter((f) => f.route.table === 'write')) {
      const writes = statements.filter((s) => actionsOf(s).includes('dynamodb:PutItem'));
      expect(writes, route.operationId).toEqual([
        {
          Effect: 'Allow',
          Action: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem'],
          Resource: tableArn,
        },
      ]);
      expect(statements.some((s) => s.Condition)).toBe(false);
    }
  });

  it('reads cover the table and exactly the indexes of lib/store/table.ts, never a wildcard', () => {
    for (const { statements } of tableFunctions) {
      const reads = allow(statements, 'dynamodb:Query');
      expect(reads).toHaveLength(1);
      const resourcesJson = JSON.stringify(reads[0]!.Resource);
      for (const g of TABLE.globalIndexes) expect(resourcesJson).toContain(`/index/${g.name}`);
      expect(resourcesJson).not.toContain('*');
    }
    for (const { statements } of functions) for (const s of statements) expect(JSON.stringify(s.Resource)).not.toBe('"*"');
  });

  it('only the token-minting routes may use the key (Sign alone: the kid is in their environment); only those whose row says `secret` may read the service secret', () => {
    const signers = functions.filter((f) => allow(f.statements, 'kms:Sign').length > 0).map((f) => f.route.operationId);
    expect(signers).toEqual(ROUTES.filter((r) => 'signs' in r && r.signs).map((r) => r.operationId));
    expect(signers).toEqual(['issueToken', 'oauthToken']);
    expect(tableFunctions.filter((f) => f.route.secret).length).toBe(33);
    for (const { route, statements } of tableFunctions) {
      expect(
        allow(statements, 'kms:Sign').map((s) => s.Resource),
        route.operationId,
      ).toEqual(route.signs ? [{ 'Fn::GetAtt': [keyId, 'Arn'] }] : []);
      expect(
        allow(statements, 'secretsmanager:GetSecretValue').map((s) => s.Resource),
        route.operationId,
      ).toEqual(route.secret ? [{ Ref: secretId }] : []);
      expect(statements.flatMap(actionsOf).filter((a) => a.startsWith('secretsmanager:')).length > 0, route.operationId).toBe(route.secret === true);
      const all = statements.flatMap(actionsOf);
      expect(all.filter((a) => a.startsWith('kms:')).sort(), route.operationId).toEqual(route.signs ? ['kms:Sign'] : []);
    }
  });

  it('the public keys are read at deploy time by a custom resource whose function may only GetPublicKey on the key and write its logs', () => {
    expect(publicKeysResource.Properties).toEqual({ ServiceToken: { 'Fn::GetAtt': [expect.any(String), 'Arn'] }, KeyIds: [{ 'Fn::GetAtt': [keyId, 'Arn'] }] });
    const readerId = [...refsIn(publicKeysResource.Properties!.ServiceToken)][0]!;
    const reader = resources[readerId]!.Properties!;
    expect([reader.Runtime, reader.Timeout, reader.Environment]).toEqual(['nodejs22.x', 30, { Variables: { LOG_LEVEL: 'info' } }]);
    const statements = statementsOf(resources, [...refsIn(reader.Role)][0]!);
    expect(statements.flatMap(actionsOf).sort()).toEqual(['kms:GetPublicKey', 'logs:CreateLogStream', 'logs:PutLogEvents']);
    expect(allow(statements, 'kms:GetPublicKey').map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
  });

  it("a route with table 'none' (the OpenAPI document, the MCP server's resource metadata and 405s) may only write its logs: no table, key or secret", () => {
    const none = functions.filter((f) => f.route.table === 'none');
    expect(none.map((f) => f.route.operationId)).toEqual([
      'getOpenApiDocument',
      'getProtectedResourceMetadata',
      'getMcpResourceMetadata',
      'mcpGet',
      'mcpDelete',
    ]);
    for (const { route, statements } of none) {
      expect(statements.flatMap(actionsOf).sort(), route.operationId).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    }
  });

  it('logs: each function writes only to its own log group; no managed basic-execution policy', () => {
    for (const { route, props, statements } of functions) {
      const logs = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      expect(logs, route.operationId).toEqual([
        {
          Effect: 'Allow',
          Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          Resource: { 'Fn::GetAtt': [[...refsIn(props.LoggingConfig.LogGroup)][0], 'Arn'] },
        },
      ]);
      const role = resources[[...refsIn(props.Role)][0]!]!;
      expect(role.Properties!.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('the signing key is an ECC P-256 sign/verify KMS key, retained; the secret is generated by the stack', () => {
    template.hasResource('AWS::KMS::Key', { Properties: Match.objectLike({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' }), DeletionPolicy: 'Retain' });
    template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 64 }) });
  });

  it('a key rotation keeps retired keys verifiable (their public keys read at deploy time, by the reader alone) and signs with the new generation', () => {
    const retired = 'arn:aws:kms:eu-west-1:111122223333:key/0b7c1d2e-aaaa-bbbb-cccc-1234567890ab';
    const rotated = synth({ serviceKeyGeneration: '2', retiredServiceKeyArns: retired });
    const res = resourcesOf(rotated.template);
    const keys = Object.keys(res).filter((id) => res[id]!.Type === 'AWS::KMS::Key');
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(keyId);
    const publicKeys = Object.entries(res).filter(([, r]) => r.Type === 'Custom::ServicePublicKeys');
    expect(publicKeys.map(([, r]) => r.Properties!.KeyIds)).toEqual([[{ 'Fn::GetAtt': [keys[0], 'Arn'] }, retired]]);
    const signing = routeFunctionsOf(rotated.template).filter((fn) => fn.Environment.Variables.SERVICE_KMS_KEY_ID);
    expect(signing.map((fn) => fn.Environment.Variables.SERVICE_KMS_KEY_ID)).toEqual([{ 'Fn::GetAtt': [keys[0], 'Arn'] }, { 'Fn::GetAtt': [keys[0], 'Arn'] }]);
    for (const fn of routeFunctionsOf(rotated.template)) {
      expect(fn.Environment.Variables.SERVICE_PUBLIC_KEYS).toEqual({ 'Fn::GetAtt': [publicKeys[0]![0], 'Keys'] });
      expect(JSON.stringify(fn.Environment.Variables)).not.toContain(retired);
    }
    const granted = [...grantsByRole(res).values()].filter((statements) => JSON.stringify(statements).includes(retired));
    expect(granted).toHaveLength(1);
    expect(granted[0]!.filter((s) => JSON.stringify(s).includes(retired))).toEqual([{ Action: 'kms:GetPublicKey', Effect: 'Allow', Resource: retired }]);
  });
});

describe('the single table (lib/store/table.ts)', () => {
  it('on-demand, keys and GSIs from the table definition, PITR, deletion protection, TTL, retained, a stream with both images', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ]),
        GlobalSecondaryIndexes: TABLE.globalIndexes.map((g) => ({
          IndexName: g.name,
          KeySchema: [
            { AttributeName: g.partitionKey, KeyType: 'HASH' },
            { AttributeName: g.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
      },
    });
    expect(TABLE.globalIndexes.map((g) => g.name)).toEqual(['gsi1', 'gsi2', 'gsi3']);
  });

  it('context tableName adopts an existing (restored) table and tableStreamArn its stream: no table resource, functions, grants and the event source point at them', () => {
    const streamArn = 'arn:aws:dynamodb:eu-west-1:111122223333:table/pm-api-restored/stream/2026-01-01T00:00:00.000';
    const { template: t } = synth({ tableName: 'pm-api-restored', tableStreamArn: streamArn });
    t.resourceCountIs('AWS::DynamoDB::Table', 0);
    for (const fn of serviceFunctionsOf(t)) expect(fn.Environment.Variables.TABLE_NAME).toBe('pm-api-restored');
    expect(t.findOutputs('TableName').TableName!.Value).toBe('pm-api-restored');
    const policies = [...grantsByRole(resourcesOf(t)).values()].filter((statements) => JSON.stringify(statements).includes('dynamodb:Query'));
    // Every table route reads the table and its indexes, and so does the sweeper of pending work; the stream function queries the table itself only.
    expect(policies).toHaveLength(TABLE_ROUTES + 2);
    const withIndexes = policies.filter((p) => JSON.stringify(p).includes(':table/pm-api-restored/index/gsi1'));
    expect(withIndexes).toHaveLength(TABLE_ROUTES + 1);
    for (const p of withIndexes) {
      const json = JSON.stringify(p);
      expect(json).toContain(':table/pm-api-restored/index/gsi2');
      expect(json).toContain(':table/pm-api-restored/index/gsi3');
    }
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', { EventSourceArn: streamArn });
  });
});

describe('gateway responses: the edge answers in the spec envelope', () => {
  // [status, code, title (the spec's table), detail]
  const notFound = [404, 'route.notFound', 'Route not found', 'No route matches this method and path.'];
  const throttled = [429, 'rate.limitExceeded', 'Rate limit exceeded', 'Too many requests; retry after the time given in Retry-After.'];
  const internal = [500, 'internal.serverError', 'Internal server error', 'The server failed unexpectedly; quote the id when reporting it.'];
  const invalidAuth = [401, 'auth.invalid', 'Invalid authentication', 'Missing or invalid credentials.'];
  const denied = [403, 'auth.accessDenied', 'Access denied', 'The credentials do not permit this operation.'];
  const invalid = [400, 'request.invalid', 'Request schema invalid', 'The request does not match the schema.'];
  const EXPECTED: Record<string, (string | number)[]> = {
    MISSING_AUTHENTICATION_TOKEN: notFound,
    RESOURCE_NOT_FOUND: notFound,
    THROTTLED: throttled,
    QUOTA_EXCEEDED: throttled,
    INTEGRATION_TIMEOUT: [408, 'request.timeout', 'Request timeout', 'The request took too long and was terminated.'],
    INTEGRATION_FAILURE: internal,
    REQUEST_TOO_LARGE: [413, 'request.tooLarge', 'Request too large', 'The request body is too large.'],
    BAD_REQUEST_BODY: invalid,
    BAD_REQUEST_PARAMETERS: invalid,
    UNSUPPORTED_MEDIA_TYPE: [
      400,
      'request.malformed',
      'Request malformed',
      "The request's Content-Encoding is not one the API takes (gzip, deflate, identity), or its body is not encoded as it says.",
    ],
    UNAUTHORIZED: invalidAuth,
    EXPIRED_TOKEN: invalidAuth,
    INVALID_SIGNATURE: invalidAuth,
    INVALID_API_KEY: invalidAuth,
    ACCESS_DENIED: denied,
    WAF_FILTERED: denied,
    AUTHORIZER_FAILURE: internal,
    AUTHORIZER_CONFIGURATION_ERROR: internal,
    API_CONFIGURATION_ERROR: internal,
    DEFAULT_4XX: [400, 'request.invalid', 'Request schema invalid', 'The request was rejected before reaching the service.'],
    DEFAULT_5XX: internal,
  };
  const responses = new Map(
    ofType('AWS::ApiGateway::GatewayResponse').map(([, r]) => {
      const p = r.Properties as {
        ResponseType: string;
        StatusCode: string;
        ResponseParameters: Record<string, string>;
        ResponseTemplates: Record<string, string>;
      };
      return [p.ResponseType, p];
    }),
  );

  it('every response type API Gateway has is customised', () => {
    const all = Object.getOwnPropertyNames(ResponseType)
      .map((k) => (ResponseType as unknown as Record<string, unknown>)[k])
      .filter((v): v is ResponseType => v instanceof ResponseType)
      .map((t) => t.responseType);
    expect(all.length).toBeGreaterThanOrEqual(21);
    expect([...responses.keys()].sort()).toEqual([...new Set(all)].sort());
    expect([...responses.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [type, [status, code, title, detail]] of Object.entries(EXPECTED)) {
    it(`${type} → ${status} ${code}, $context.requestId as id and X-Request-Id`, () => {
      const r = responses.get(type)!;
      expect(r.StatusCode).toBe(String(status));
      expect(Object.keys(r.ResponseTemplates)).toEqual(['application/json']);
      expect(JSON.parse(r.ResponseTemplates['application/json']!)).toEqual({ id: '$context.requestId', errors: [{ code, title, detail }] });
      expect(r.ResponseParameters).toMatchObject({
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
        'gatewayresponse.header.Cache-Control': "'no-store'",
        // Readable by any page: a browser client sees the edge's answer, not a failed fetch.
        'gatewayresponse.header.Access-Control-Allow-Origin': "'*'",
        'gatewayresponse.header.Access-Control-Expose-Headers':
          "'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, Idempotent-Replayed, WWW-Authenticate, x-amzn-Remapped-WWW-Authenticate'",
      });
      const retryAfter = r.ResponseParameters['gatewayresponse.header.Retry-After'];
      expect(retryAfter).toBe(status === 429 ? "'1'" : undefined);
    });
  }
});

describe('alarms and dashboard', () => {
  const alarms = ofType('AWS::CloudWatch::Alarm').map(([id, a]) => ({ id, p: a.Properties as AlarmProps }));
  const metricsOf = (p: AlarmProps) => (p.Metrics ?? []).filter((m) => m.MetricStat).map((m) => m.MetricStat!);
  /** The ids of an alarm's metrics, and its expression over them. */
  const idsOf = (p: AlarmProps) => (p.Metrics ?? []).filter((m) => m.MetricStat).map((m) => m.Id);
  const expressionOf = (p: AlarmProps) => (p.Metrics ?? []).find((m) => m.Expression)?.Expression;

  it('5xx rate: 5XXError over Count of the stage, as a percentage', () => {
    const a = alarms.find(({ p }) => metricsOf(p).some((m) => m.Metric.MetricName === '5XXError'))!;
    expect(
      metricsOf(a.p)
        .map((m) => [m.Metric.Namespace, m.Metric.MetricName, m.Stat])
        .sort(),
    ).toEqual([
      ['AWS/ApiGateway', '5XXError', 'Sum'],
      ['AWS/ApiGateway', 'Count', 'Sum'],
    ]);
    expect((a.p.Metrics as Array<{ Expression?: string }>).find((m) => m.Expression)!.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    expect([a.p.Threshold, a.p.ComparisonOperator]).toEqual([1, 'GreaterThanThreshold']);
  });

  it('p99 latency of the stage', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Latency',
      Namespace: 'AWS/ApiGateway',
      ExtendedStatistic: 'p99',
      Threshold: 2000,
      Dimensions: Match.arrayWith([Match.objectLike({ Name: 'Stage', Value: Match.anyValue() })]),
    });
  });

  it('throttles: every function is watched, at most 10 metrics per alarm, joined in one composite alarm', () => {
    const throttleAlarms = alarms.filter(({ p }) => metricsOf(p).some((m) => m.Metric.MetricName === 'Throttles'));
    const watched = throttleAlarms.flatMap(({ p }) => metricsOf(p).flatMap((m) => [...refsIn(m.Metric.Dimensions)]));
    const workers = ofType('AWS::Lambda::Function')
      .filter(([, r]) => WORKERS.some((w) => String(r.Properties!.Description).endsWith(`(${w.id})`)))
      .map(([id]) => id);
    expect(workers).toHaveLength(WORKERS.length);
    expect(watched.sort()).toEqual([...functions.map((f) => f.logicalId), ...workers].sort());
    for (const { p } of throttleAlarms) expect(metricsOf(p).length).toBeLessThanOrEqual(10);
    // Throttles publish only when they happen: each series counts a missing value as 0, so one function's throttles are a sum.
    for (const { p } of throttleAlarms)
      expect(expressionOf(p)).toBe(
        idsOf(p)
          .map((id) => `FILL(${id}, 0)`)
          .join(' + '),
      );
    const composite = ofType('AWS::CloudWatch::CompositeAlarm');
    expect(composite).toHaveLength(1);
    expect([...refsIn(composite[0]![1].Properties!.AlarmRule)].sort()).toEqual(throttleAlarms.map((a) => a.id).sort());
  });

  it('DynamoDB throttling on the table and each GSI', () => {
    const a = alarms.find(({ p }) => metricsOf(p).some((m) => m.Metric.MetricName === 'ReadThrottleEvents'))!;
    const seen = metricsOf(a.p).map(
      (m) => `${m.Metric.MetricName}:${(m.Metric.Dimensions.find((d) => d.Name === 'GlobalSecondaryIndexName')?.Value as string | undefined) ?? 'table'}`,
    );
    expect(expressionOf(a.p)).toBe(
      idsOf(a.p)
        .map((id) => `FILL(${id}, 0)`)
        .join(' + '),
    );
    expect(seen.sort()).toEqual([
      'ReadThrottleEvents:gsi1',
      'ReadThrottleEvents:gsi2',
      'ReadThrottleEvents:gsi3',
      'ReadThrottleEvents:table',
      'WriteThrottleEvents:gsi1',
      'WriteThrottleEvents:gsi2',
      'WriteThrottleEvents:gsi3',
      'WriteThrottleEvents:table',
    ]);
  });

  it('alarms notify the topic given in context; a dashboard exists', () => {
    const topic = 'arn:aws:sns:eu-west-1:111122223333:pm-api-alarms';
    const withTopic = synth({ alarmTopicArn: topic });
    withTopic.template.hasResourceProperties('AWS::CloudWatch::CompositeAlarm', { AlarmActions: [topic] });
    const named = resourcesOf(withTopic.template);
    const actions = Object.values(named)
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
      .map((r) => r.Properties!.AlarmActions);
    // 5xx, p99, DynamoDB; webhook dead letters, stream failures, stream lag
    expect(actions.filter((a) => JSON.stringify(a) === JSON.stringify([topic]))).toHaveLength(6);
    expect(ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
  });
});

describe('few resources per route (test/infra/quotas.test.ts holds each template to 60 % of its quotas)', () => {
  it("every function's grants are inline in its own role: no AWS::IAM::Policy resource, no role shared", () => {
    expect(ofType('AWS::IAM::Policy').map(([id]) => id)).toEqual([]);
    const roles = ofType('AWS::Lambda::Function').map(([, fn]) => [...refsIn(fn.Properties!.Role)][0]!);
    expect(new Set(roles).size).toBe(ROUTES.length + WORKERS.length + 1);
    for (const roleId of roles) {
      expect(
        (resources[roleId]!.Properties!.Policies as Array<{ PolicyName: string }>).map((p) => p.PolicyName),
        roleId,
      ).toEqual(['grants']);
    }
  });

  it('invoke permissions: a single-path function may be invoked by its method on its path of the deployed stage; the CORS preflight by OPTIONS on any path of that stage; never a test invocation', () => {
    const apiId = ofType('AWS::ApiGateway::RestApi')[0]![0];
    const stage = ofType('AWS::ApiGateway::Stage')[0]![1];
    // The stage by name (the Stage resource waits for the area stacks that hold the permissions).
    expect(stage.Properties!.StageName).toBe('prod');
    const sourceArn = (resource: string) => ({
      'Fn::Join': [
        '',
        ['arn:', { Ref: 'AWS::Partition' }, ':execute-api:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':', { Ref: apiId }, `/prod${resource}`],
      ],
    });
    const permissions = ofType('AWS::Lambda::Permission')
      .map(([, p]) => p.Properties as { Action: string; Principal: string; FunctionName: unknown; SourceArn: unknown })
      .filter((p) => p.Principal === 'apigateway.amazonaws.com');
    expect(permissions).toHaveLength(ROUTES.length);
    for (const { route, logicalId } of functions) {
      const paths = pathsOf(route);
      const expected = paths.length === 1 ? `/${route.method}${paths[0]!.replace(/\{[^}]+\}/g, '*')}` : `/${route.method}/*`;
      expect(
        permissions.filter((p) => refsIn(p.FunctionName).has(logicalId)),
        route.operationId,
      ).toEqual([
        {
          Action: 'lambda:InvokeFunction',
          Principal: 'apigateway.amazonaws.com',
          FunctionName: { 'Fn::GetAtt': [logicalId, 'Arn'] },
          SourceArn: sourceArn(expected),
        },
      ]);
    }
    expect(pathsOf(functions.find((f) => f.route.operationId === 'corsPreflight')!.route).length).toBeGreaterThan(1);
    expect(JSON.stringify(permissions)).not.toContain('test-invoke-stage');
  });
});

describe('public URLs and outputs', () => {
  it('without a domain: the stage URL built from the API id, region and stage; outputs base_url, app_url, table', () => {
    const outputs = template.findOutputs('*');
    const apiId = ofType('AWS::ApiGateway::RestApi')[0]![0];
    const appUrl = { 'Fn::Join': ['', ['https://', { Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/prod']] };
    expect(outputs.AppUrl!.Value).toEqual(appUrl);
    expect(outputs.BaseUrl!.Value).toEqual({
      'Fn::Join': ['', ['https://', { Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/prod/v2']],
    });
    expect(outputs.TableName!.Value).toEqual({ Ref: tableId });
    for (const { props } of functions) expect(props.Environment.Variables.PUBLIC_APP_URL).toEqual(appUrl);
  });

  it('with a domain: {app_url} = https://domain, {base_url} = …/v2, the domain is mapped and the default endpoint off', () => {
    const { template: t } = synth({ domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/abc' });
    const outputs = t.findOutputs('*');
    expect([outputs.AppUrl!.Value, outputs.BaseUrl!.Value]).toEqual(['https://api.example.com', 'https://api.example.com/v2']);
    for (const fn of serviceFunctionsOf(t)) {
      expect(fn.Environment.Variables).toMatchObject({ PUBLIC_APP_URL: 'https://api.example.com', PUBLIC_BASE_URL: 'https://api.example.com/v2' });
    }
    t.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'api.example.com',
      SecurityPolicy: 'TLS_1_2',
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
    t.hasResourceProperties('AWS::ApiGateway::BasePathMapping', Match.objectLike({ DomainName: Match.anyValue() }));
    t.hasResourceProperties('AWS::ApiGateway::RestApi', { DisableExecuteApiEndpoint: true });
  });

  it('webUrl: every function gets PUBLIC_WEB_URL, the address of the links.html; without it none does ({app_url} then)', () => {
    const withWeb = synth({ webUrl: 'https://app.example.com/workspace' }).template;
    for (const fn of serviceFunctionsOf(withWeb)) expect(fn.Environment.Variables.PUBLIC_WEB_URL).toBe('https://app.example.com/workspace');
    for (const fn of Object.values(synth({}).template.findResources('AWS::Lambda::Function'))) {
      expect(
        (fn as { Properties: { Environment?: { Variables?: Record<string, unknown> } } }).Properties.Environment?.Variables?.PUBLIC_WEB_URL,
      ).toBeUndefined();
    }
  });
});

describe('context options are checked', () => {
  it.each([
    [{ requestTimeoutMs: '28500' }, 'Context option requestTimeoutMs must be an integer from 1000 to 28000, not "28500"'],
    [{ logRetentionDays: '2' }, 'Context option logRetentionDays must be one of'],
    [{ registrationLimitPerHour: '-1' }, 'Context option registrationLimitPerHour must be an integer from 0 to 100000, not "-1"'],
    [{ domainName: 'api.example.com' }, 'Context options domainName and certificateArn go together'],
    [{ stage: 'prod-1' }, 'Context option stage must be letters, digits or _'],
    [{ retiredServiceKeyArns: 'not-an-arn' }, 'Context option retiredServiceKeyArns must list KMS key ARNs'],
    [
      { retiredServiceKeyArns: Array.from({ length: 9 }, (_, i) => `arn:aws:kms:eu-west-1:111122223333:key/${i}`).join(',') },
      "Context option retiredServiceKeyArns lists 9 keys; at most 8: every function's environment carries each key's public half",
    ],
    [{ tableName: 'pm-api-restored' }, 'Context options tableName and tableStreamArn go together'],
    [{ webUrl: 'http://app.example.com' }, 'Context option webUrl must be an https URL without query or fragment'],
    [
      { tableName: 'pm-api-restored', tableStreamArn: 'arn:aws:dynamodb:eu-west-1:111122223333:table/pm-api-restored' },
      'Context option tableStreamArn must be a DynamoDB stream ARN',
    ],
  ])('%j is refused', (context, message) => {
    expect(() => synth(context)).toThrow(message);
  });
});

describe('a stage\'s options recorded in cdk.json (context "stages" → its name)', () => {
  const STREAM = 'arn:aws:dynamodb:eu-west-1:111122223333:table/pm-api-restored/stream/2026-11-21T09:30:00.000';
  const RETIRED = 'arn:aws:kms:eu-west-1:111122223333:key/old';
  const stages = {
    prod: { tableName: 'pm-api-restored', tableStreamArn: STREAM, serviceKeyGeneration: 2, retiredServiceKeyArns: RETIRED },
    staging: { throttleRateLimit: 20, logRetentionDays: 14 },
  };
  const settingsOf = (context: Record<string, unknown>) => readSettings(new App({ context }).node);

  it('apply to their stage only: another stage keeps its own table and key', () => {
    expect(settingsOf({ stages })).toMatchObject({
      stage: 'prod',
      tableName: 'pm-api-restored',
      tableStreamArn: STREAM,
      serviceKeyGeneration: 2,
      retiredServiceKeyArns: [RETIRED],
    });
    expect(settingsOf({ stage: 'staging', stages })).toMatchObject({
      stage: 'staging',
      tableName: undefined,
      tableStreamArn: undefined,
      serviceKeyGeneration: 1,
      retiredServiceKeyArns: [],
      throttle: { rateLimit: 20, burstLimit: 200 },
      logRetention: 14,
    });
  });

  it('an option given with -c wins over the recorded one', () => {
    expect(settingsOf({ stage: 'staging', stages, throttleRateLimit: '30' }).throttle.rateLimit).toBe(30);
  });

  it.each([
    [{ stages: { prod: { tablename: 'x' } } }, "Context option stages.prod holds 'tablename', which is no option of a stage"],
    [{ stages: { prod: { stage: 'staging' } } }, "Context option stages.prod holds 'stage', which is no option of a stage"],
    [{ stages: { prod: 'x' } }, 'Context option stages.prod must be an object of options'],
    [{ stages: [] }, 'Context option stages must be an object of stage names'],
    [
      { stage: 'staging', stages: { staging: { requestTimeoutMs: 50_000 } } },
      'Context option requestTimeoutMs must be an integer from 1000 to 28000, not 50000',
    ],
  ])('%j is refused', (context, message) => {
    expect(() => settingsOf(context)).toThrow(message);
  });
});
