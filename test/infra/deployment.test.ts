// The REST API's explicit deployment (infra/api-deployment.ts): its logical id carries a hash of
// the route table, so a changed route is a new deployment and the stage serves it; an unchanged
// table keeps the id, so a deploy without API changes leaves the stage alone.
import { describe, expect, it, vi } from 'vitest';
import { corsPreflight, createNote, getCustomerScore, getEntity, oauthToken, ROUTES, type Route } from '#lib/routes.ts';
import { resourcesOf, synth } from './synth.ts';
import { AREAS } from '../../infra/route-areas.ts';

// Each synth takes seconds, more on a loaded machine; a slow synth is not a failure.
vi.setConfig({ testTimeout: 300_000 });

function deploymentOf(routes: readonly Route[] = ROUTES, context: Record<string, unknown> = {}) {
  const { template, templates } = synth(context, { routes });
  const resources = resourcesOf(template);
  const deployments = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::ApiGateway::Deployment');
  expect(deployments).toHaveLength(1);
  const [id, deployment] = deployments[0]!;
  return { id, deployment, resources, templates };
}

/** A small table (the preflight row is required): these synthesize in a fraction of the full table's time. */
const SMALL: readonly Route[] = [getCustomerScore, getEntity, createNote, oauthToken, corsPreflight];
const changed = (operationId: string, change: Partial<Route>) => SMALL.map((route) => (route.operationId === operationId ? { ...route, ...change } : route));

describe('the deployment carries a hash of the route table', () => {
  const full = deploymentOf();

  it('the same table gives the same deployment id twice', () => {
    expect(deploymentOf().id).toBe(full.id);
    expect(full.id).toMatch(/^ApiDeployment[0-9A-F]{8}[0-9a-f]{32}$/);
  });

  it('the stage is bound to it and keeps the logical id the RestApi construct gave it (an update re-points the stage, never replaces it by name)', () => {
    const stages = Object.entries(full.resources).filter(([, r]) => r.Type === 'AWS::ApiGateway::Stage');
    expect(stages.map(([id, r]) => [id, r.Properties!.DeploymentId, r.Properties!.StageName])).toEqual([
      ['ApiDeploymentStageprod3EB9684E', { Ref: full.id }, 'prod'],
    ]);
  });

  it('it is made after every nested stack (the area stacks add the methods) and every gateway response', () => {
    const parent = full.templates.find((t) => !t.parent)!;
    const nested = full.templates.filter((t) => t.parent).map((t) => t.prefix);
    expect(nested).toEqual([...AREAS.map((a) => a.id), 'Events']);
    const responses = Object.keys(parent.template.Resources).filter((id) => parent.template.Resources[id]!.Type === 'AWS::ApiGateway::GatewayResponse');
    expect(responses.length).toBeGreaterThanOrEqual(21);
    expect(full.deployment.DependsOn).toEqual(expect.arrayContaining([...full.templates.filter((t) => t.parent).map((t) => t.resourceId), ...responses]));
    // Every method of the API lives in one of those stacks.
    const methodsIn = (prefix: string) =>
      Object.values(full.templates.find((t) => t.prefix === prefix)!.template.Resources).filter((r) => r.Type === 'AWS::ApiGateway::Method').length;
    expect(Object.values(parent.template.Resources).filter((r) => r.Type === 'AWS::ApiGateway::Method')).toEqual([]);
    expect(AREAS.map((a) => methodsIn(a.id)).reduce((a, b) => a + b)).toBe(
      Object.values(full.resources).filter((r) => r.Type === 'AWS::ApiGateway::Method').length,
    );
  });

  it('a changed row changes it: path, method, handler, auth, operation id, CORS; so does a new row and the integration timeout', () => {
    const base = deploymentOf(SMALL).id;
    expect(deploymentOf(SMALL).id).toBe(base);
    const variants: Array<[string, readonly Route[], Record<string, unknown>?]> = [
      ['path', changed('getEntity', { path: '/v2/entities/{id}/other' })],
      ['method', changed('getEntity', { method: 'POST' })],
      ['handler', changed('getEntity', { handler: 'functions/entities/get-score.ts' })],
      ['auth', changed('getEntity', { auth: 'entities:delete' })],
      ['operation id', changed('getEntity', { operationId: 'readEntity' })],
      ['CORS', changed('oauthToken', { cors: false })],
      ['a new row', [...SMALL, { ...getEntity, operationId: 'deleteEntity', method: 'DELETE' }]],
      ['the integration timeout', SMALL, { requestTimeoutMs: '12000' }],
    ];
    const ids = new Map<string, string>([['base', base]]);
    for (const [what, routes, context] of variants) ids.set(what, deploymentOf(routes, context).id);
    // Each change gives an id of its own.
    expect(new Set(ids.values()).size, JSON.stringify([...ids])).toBe(ids.size);
  });
});
