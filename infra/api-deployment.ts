// The REST API's deployment and stage. The methods live in the area stacks (infra/route-area.ts),
// where they cannot touch the logical id of a deployment the RestApi construct would make: a
// changed route would leave the stage serving the old snapshot. So the deployment is made here,
// after every area stack, and its logical id carries a hash of everything that shapes the API —
// each row of the route table with its area and paths, the integration timeout, the gateway
// responses and what the ANY methods answer — so that any change to them is a new deployment, which the stage then points at.
import { CfnOutput, type NestedStack } from 'aws-cdk-lib';
import {
  Deployment,
  Stage,
  type CfnGatewayResponse,
  type CfnMethod,
  type GatewayResponse,
  type Method,
  type RestApi,
  type StageOptions,
} from 'aws-cdk-lib/aws-apigateway';
import type { Route } from '#lib/routes.ts';

/** A row as the API serves it: the row, the area stack its function lives in, its paths. */
interface ServedRoute {
  route: Route;
  area: string;
  paths: readonly string[];
}

interface ApiDeploymentProps {
  stage: StageOptions & { stageName: string };
  routes: readonly ServedRoute[];
  integrationTimeoutMs: number;
  gatewayResponses: readonly GatewayResponse[];
  /** The methods whose integration the API answers with itself (infra/route-area.ts refuseOtherMethods): what they answer is hashed. */
  mockMethods: readonly Method[];
  /**
   * Every nested stack: the deployment is made after all of them — the area stacks' methods must
   * exist for its snapshot, and the workers are updated before the stage moves to a new API.
   */
  nestedStacks: readonly NestedStack[];
}

/** What of the route table shapes the API, as plain data (every field of every row: a new field is in it unasked). */
function apiShape(routes: readonly ServedRoute[], integrationTimeoutMs: number) {
  return {
    routes: routes.map(({ route, area, paths }) => ({ ...sortedKeys(route), area, paths: [...paths] })),
    integrationTimeoutMs,
  };
}

const sortedKeys = (row: Route): Record<string, unknown> => Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)));

/**
 * Deploys `api` to its stage: the Deployment, hashed as above and depending on every nested stack
 * and gateway response, and the Stage bound to it. Both are made inside the RestApi construct where
 * it would make them itself, so the stage keeps its logical id: an update points it at the new
 * deployment instead of replacing it (a replacement would collide with the old stage's name).
 */
export function deployApi(api: RestApi, props: ApiDeploymentProps): Stage {
  const deployment = new Deployment(api, 'Deployment', { api, description: 'Product-management API v2' });
  deployment.addToLogicalId(apiShape(props.routes, props.integrationTimeoutMs));
  for (const response of props.gatewayResponses) {
    const cfn = response.node.defaultChild as CfnGatewayResponse;
    deployment.addToLogicalId({
      gatewayResponse: { type: cfn.responseType, status: cfn.statusCode, parameters: cfn.responseParameters, templates: cfn.responseTemplates },
    });
    deployment.node.addDependency(response);
  }
  for (const method of props.mockMethods) {
    const cfn = method.node.defaultChild as CfnMethod;
    deployment.addToLogicalId({ mockMethod: { method: cfn.httpMethod, integration: cfn.integration, responses: cfn.methodResponses } });
  }
  for (const stack of props.nestedStacks) deployment.node.addDependency(stack);

  const stage = new Stage(api, `DeploymentStage.${props.stage.stageName}`, { deployment, ...props.stage });
  api.deploymentStage = stage;
  // The output the RestApi construct makes with its own deployment (the stage's URL), kept for operators.
  new CfnOutput(api, 'Endpoint', { value: stage.urlForPath() });
  return stage;
}
