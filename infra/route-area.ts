// One area of the API as a nested stack (infra/route-areas.ts says which rows): the function of
// each of its rows, with its role and log group, and every method on its paths — the rows' own and
// the CORS preflight's OPTIONS — added to the one REST API the parent stack holds. The API, its
// path resources, the table, the key and the secret stay in the parent; CDK passes what this
// stack reads of them as its CloudFormation parameters.
import { NestedStack, type Duration } from 'aws-cdk-lib';
import { AwsIntegration, Method, type IResource, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { PREFLIGHT_PATH, type Route } from '#lib/routes.ts';
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

  constructor(scope: Construct, id: string, props: RouteAreaProps) {
    super(scope, id, { description: `pm-api ${props.settings.stage}: ${props.area.summary}` });
    this.area = props.area;
    this.functions = new RouteFunctions(this, 'Routes', props).functions;
  }

  /**
   * Serves the area's rows on their paths, and the preflight on the area's CORS paths (`preflight`:
   * its function, wherever it lives). Each function gets one invoke permission, for its method on
   * its path of the stage (the preflight's: OPTIONS on any path), never a test invocation.
   */
  serve(target: ApiTarget, corsPaths: readonly string[], preflight: RouteFunction): void {
    for (const { route, fn } of this.functions) {
      if (route.path === PREFLIGHT_PATH) {
        allowInvoke(fn, target, route.method, '/*');
        continue;
      }
      this.addMethod(target, route, route.path, fn);
      allowInvoke(fn, target, route.method, route.path.replace(/\{[^/]+\}/g, '*'));
    }
    for (const path of corsPaths) this.addMethod(target, preflight.route, path, preflight.fn);
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

function allowInvoke(fn: IFunction, target: ApiTarget, method: string, path: string): void {
  fn.addPermission(`ApiInvoke${method}`, {
    principal: new ServicePrincipal('apigateway.amazonaws.com'),
    sourceArn: target.api.arnForExecuteApi(method, path, target.stageName),
  });
}
