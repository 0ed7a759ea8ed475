// Synthesizes the stack for assertions without bundling (context aws:cdk:bundling-stacks = []),
// so the infra tests take seconds and need neither esbuild runs nor AWS credentials.
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { readSettings } from '../../infra/settings.ts';
import { PmApiStack } from '../../infra/stack.ts';

export function synth(context: Record<string, unknown> = {}) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new PmApiStack(app, 'PmApi-test', { settings: readSettings(app.node) });
  return { app, stack, template: Template.fromStack(stack) };
}

export type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: string[] | string; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

export const resourcesOf = (template: Template) => (template.toJSON() as { Resources: Resources }).Resources;

/** Logical ids a value refers to (Ref, Fn::GetAtt), anywhere inside it. */
export function refsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'Ref' && typeof v === 'string') out.add(v);
      else if (k === 'Fn::GetAtt' && Array.isArray(v)) out.add(String(v[0]));
      else refsIn(v, out);
    }
  }
  return out;
}

export type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };
type PolicyDocument = { Statement: Statement[] };

/**
 * What a role is allowed: the statements of its inline policies (where infra/service-function.ts
 * puts a function's grants) and of any AWS::IAM::Policy attached to it, so a grant is seen
 * wherever it lands.
 */
export function statementsOf(resources: Resources, roleId: string): Statement[] {
  const inline = ((resources[roleId]!.Properties!.Policies ?? []) as Array<{ PolicyDocument: PolicyDocument }>).map((p) => p.PolicyDocument);
  const attached = Object.values(resources)
    .filter((p) => p.Type === 'AWS::IAM::Policy' && refsIn(p.Properties!.Roles).has(roleId))
    .map((p) => p.Properties!.PolicyDocument as PolicyDocument);
  return [...inline, ...attached].flatMap((d) => d.Statement);
}

/** Each role's statements (statementsOf), by the role's logical id. */
export const grantsByRole = (resources: Resources) =>
  new Map(Object.keys(resources).filter((id) => resources[id]!.Type === 'AWS::IAM::Role').map((id) => [id, statementsOf(resources, id)]));
