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

type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: string[] | string; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;

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
