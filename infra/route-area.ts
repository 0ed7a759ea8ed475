// One area of the API as a nested stack (infra/route-areas.ts says which rows): the function of
// each of its rows, with its role and log group, and every method on its paths — the rows' own, the
// CORS preflight's OPTIONS and the ANY answering 405 — added to the one REST API the parent stack holds. The API, its
// path resources, the table, the key and the secret stay in the parent; CDK passes what this
// stack reads of them as its CloudFormation parameters.
import { NestedStack, type Duration } from 'aws-cdk-lib';
import { AwsIntegration, Method, MockIntegration, PassthroughBehavior, type IResource, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { EDGE_CORS_HEADERS } from '#lib/http/cors.ts';
import { errorEnvelope, methodNotAllowedDetail } from '#lib/http/envelope.ts';
import { ERROR_TABLE } from '#lib/http/errors.ts';
import { layoutOf, PREFLIGHT_PATH, type PathLayout, type Route } from '#lib/routes.ts';
import type { Area } from './route-areas.ts';
import { RouteFunctions, type RouteFunction, type RouteFunctionsProps } from './route-functions.ts';

interface RouteAreaProps extends RouteFunctionsProps {
  area: Area;
}

/** Where a route area's methods go: the shared API, its stage's name and the integration timeout. */
interface ApiTarget {
  api: RestApi;
  /** The path's resource in the parent's tree (created on first use). */
  resourceFor(path: string): IResource;
  /**
   * The stage the invoke permissions name, by name: a reference to the Stage resource would make
   * every area wait for the stage, which waits for the deployment, which waits for the areas.
   */
  stageName: string;
  timeout: Duration;
}

export class RouteArea extends NestedStack {
  readonly area: Area;
  readonly functions: RouteFunction[];
  /** The methods it adds to the API. */
  readonly methods: Method[] = [];
  /** Of those, the ANY methods answering 405 (refuseOtherMethods): what they answer is part of the deployment's hash. */
  readonly refusals: Method[] = [];

  constructor(scope: Construct, id: string, props: RouteAreaProps) {
    super(scope, id, { description: `pm-api ${props.settings.stage}: ${props.area.summary}` });
    this.area = props.area;
    this.functions = new RouteFunctions(this, 'Routes', props).functions;
  }

  /**
   * Serves the area's rows on their paths, the preflight on the area's CORS paths (`preflight`: its
   * function, wherever it lives), and an ANY answering 405 where the path's layout has one
   * (lib/routes.ts PathLayout, from `table`, the whole route table). Each function gets one invoke
   * permission, for its method on its path of the stage (the preflight's: OPTIONS on any path),
   * never a test invocation.
   */
  serve(target: ApiTarget, table: readonly Route[], corsPaths: readonly string[], preflight: RouteFunction): void {
    for (const { route, fn } of this.functions) {
      if (route.path === PREFLIGHT_PATH) {
        allowInvoke(fn, target, route.method, '/*');
        continue;
      }
      this.addMethod(target, route, route.path, fn);
      allowInvoke(fn, target, route.method, route.path.replace(/\{[^/]+\}/g, '*'));
    }
    for (const path of corsPaths) this.addMethod(target, preflight.route, path, preflight.fn);
    const paths = new Set(this.functions.map(({ route }) => route.path).filter((path) => path !== PREFLIGHT_PATH));
    for (const layout of layoutOf(table).filter((l) => paths.has(l.path) && l.any)) {
      const refusal = refuseOtherMethods(this, target.resourceFor(layout.path), layout);
      this.methods.push(refusal);
      this.refusals.push(refusal);
    }
  }

  private addMethod(target: ApiTarget, route: Route, path: string, fn: IFunction): void {
    // LambdaIntegration would add a permission per method; the one per function above replaces them.
    const integration = new AwsIntegration({
      proxy: true,
      service: 'lambda',
      path: `2015-03-31/functions/${fn.functionArn}/invocations`,
      options: { timeout: target.timeout },
    });
    this.methods.push(
      new Method(this, `${route.method} ${path.replaceAll('/', ' ')}`, {
        resource: target.resourceFor(path),
        httpMethod: route.method,
        integration,
        options: { operationName: route.operationId },
      }),
    );
  }
}

/** The gateway fills in `$context.*` in a mapping template. */
const REQUEST_ID = '$context.requestId';

function allowInvoke(fn: IFunction, target: ApiTarget, method: string, path: string): void {
  fn.addPermission(`ApiInvoke${method}`, {
    principal: new ServicePrincipal('apigateway.amazonaws.com'),
    sourceArn: target.api.arnForExecuteApi(method, path, target.stageName),
  });
}

/**
 * The ANY of a path (lib/routes.ts PathLayout): every method the path has no method for answers 405
 * in the envelope, Allow naming what it takes (for a request that fell through from a more specific
 * path, what that one takes), without a function, as the local gateway answers. Without it API
 * Gateway would answer "Missing Authentication Token", the 404 of an unknown path. The mock's one
 * response is its default, whatever the request's body.
 */
function refuseOtherMethods(scope: Construct, resource: IResource, layout: PathLayout): Method {
  const headers = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...EDGE_CORS_HEADERS };
  const status = String(ERROR_TABLE['request.methodNotAllowed'].status);
  const body = JSON.stringify(errorEnvelope(REQUEST_ID, 'request.methodNotAllowed', methodNotAllowedDetail('$context.httpMethod', '$allow')));
  const template = [
    `#set($allow = "${layout.allow}")`,
    ...layout.shadows.map(
      ({ literals, allow }) =>
        `#if(${Object.entries(literals)
          .map(([param, literal]) => `$input.params().path.get('${param}') == "${literal}"`)
          .join(' && ')})#set($allow = "${allow}")#end`,
    ),
    '#set($context.responseOverride.header.Allow = $allow)',
    `#set($context.responseOverride.header.X-Request-Id = "${REQUEST_ID}")`,
    body,
  ].join('\n');
  return new Method(scope, `ANY ${layout.path.replaceAll('/', ' ')}`, {
    resource,
    httpMethod: 'ANY',
    integration: new MockIntegration({
      passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
      requestTemplates: { 'application/json': JSON.stringify({ statusCode: Number(status) }) },
      integrationResponses: [
        {
          statusCode: status,
          // Static values are quoted in a response's header mapping; Allow and the request id are set by the template.
          responseParameters: Object.fromEntries(Object.entries(headers).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`])),
          responseTemplates: { 'application/json': template },
        },
      ],
    }),
    options: {
      operationName: 'methodNotAllowed',
      methodResponses: [
        {
          statusCode: status,
          responseParameters: Object.fromEntries(['Allow', 'X-Request-Id', ...Object.keys(headers)].map((name) => [`method.response.header.${name}`, true])),
        },
      ],
    },
  });
}
