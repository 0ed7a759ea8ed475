// Synthesizes the stack for assertions without bundling (context aws:cdk:bundling-stacks = []),
// so the infra tests take seconds and need neither esbuild runs nor AWS credentials. The parent
// and its nested stacks are synthesized as `cdk synth` writes them (templates); `template` joins
// them into one, each nested resource under `<nested stack id>/<logical id>` and every reference
// across stacks (a nested stack's parameter, a parent's `Fn::GetAtt` of a nested output) replaced
// by what it refers to, so assertions read a function's grants or environment as if one stack.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ROUTES, type Route } from '#lib/routes.ts';
import { WORKERS, type Worker } from '#lib/workers.ts';
import { readSettings } from '../../infra/settings.ts';
import { PmApiStack } from '../../infra/stack.ts';

type Resources = Record<
  string,
  {
    Type: string;
    Properties?: Record<string, unknown>;
    DependsOn?: string[] | string;
    DeletionPolicy?: string;
    UpdateReplacePolicy?: string;
    Metadata?: unknown;
  }
>;

export interface CfnTemplate {
  Resources: Resources;
  Outputs?: Record<string, { Value: unknown; Description?: string; Export?: unknown }>;
  Parameters?: Record<string, unknown>;
  [section: string]: unknown;
}

/** One template of the synthesized assembly. */
export interface SynthesizedTemplate {
  /** '' for the parent; a nested stack's construct path below the parent (e.g. 'Entities'). */
  prefix: string;
  /** The logical id of the nested stack's AWS::CloudFormation::Stack resource in its parent. */
  resourceId?: string;
  parent?: SynthesizedTemplate;
  template: CfnTemplate;
  /** Bytes of the template file as `cdk synth` writes it (what CloudFormation receives). */
  bytes: number;
}

interface SynthOptions {
  routes?: readonly Route[];
  workers?: readonly Worker[];
}

export function synth(context: Record<string, unknown> = {}, options: SynthOptions = {}) {
  const outdir = mkdtempSync(join(tmpdir(), 'pm-api-synth-'));
  try {
    const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [], ...context } });
    const stack = new PmApiStack(app, 'PmApi-test', {
      settings: readSettings(app.node),
      routes: options.routes ?? ROUTES,
      workers: options.workers ?? WORKERS,
    });
    const assembly = app.synth();
    const read = (file: string) => ({ template: JSON.parse(readFileSync(file, 'utf8')) as CfnTemplate, bytes: statSync(file).size });
    const parent: SynthesizedTemplate = { prefix: '', ...read(assembly.getStackByName(stack.stackName).templateFullPath) };
    const templates = [parent];
    const byStack = new Map<Stack, SynthesizedTemplate>([[stack, parent]]);
    // findAll lists parents before children, so a nested stack's parent is already read.
    for (const nested of stack.node.findAll().filter((c): c is NestedStack => NestedStack.isNestedStack(c))) {
      const up = byStack.get(Stack.of(nested.node.scope!))!;
      const resourceId = Stack.of(nested.nestedStackResource!).resolve(nested.nestedStackResource!.logicalId) as string;
      const prefix = up.prefix ? `${up.prefix}/${nested.node.id}` : nested.node.id;
      const t: SynthesizedTemplate = { prefix, resourceId, parent: up, ...read(join(assembly.directory, nested.templateFile)) };
      templates.push(t);
      byStack.set(nested, t);
    }
    return { app, stack, templates, template: Template.fromJSON(flatten(templates)) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The logical id of a resource of `t` in the joined template. */
const qualified = (t: SynthesizedTemplate, id: string) => (t.prefix ? `${t.prefix}/${id}` : id);

/** Every template joined into one (see the header): resources of all, outputs of the parent. */
function flatten(templates: readonly SynthesizedTemplate[]): CfnTemplate {
  const children = (t: SynthesizedTemplate) => templates.filter((c) => c.parent === t);
  const resolve = (value: unknown, t: SynthesizedTemplate): unknown => {
    if (Array.isArray(value)) return value.map((v) => resolve(v, t));
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    if (entries.length === 1) {
      const [[key, arg]] = entries as [[string, unknown]];
      if (key === 'Ref' && typeof arg === 'string') {
        if (t.template.Parameters?.[arg] !== undefined && t.parent) {
          const passed = (t.parent.template.Resources[t.resourceId!]!.Properties!.Parameters as Record<string, unknown>)[arg];
          return resolve(passed, t.parent);
        }
        return arg in t.template.Resources ? { Ref: qualified(t, arg) } : value;
      }
      if (key === 'Fn::GetAtt' && Array.isArray(arg)) {
        const [id, attribute] = arg as [string, string];
        const child = children(t).find((c) => c.resourceId === id);
        if (child && attribute.startsWith('Outputs.')) return resolve(child.template.Outputs![attribute.slice('Outputs.'.length)]!.Value, child);
        return { 'Fn::GetAtt': [qualified(t, id), attribute] };
      }
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, resolve(v, t)]));
  };
  const resources: Resources = {};
  for (const t of templates) {
    for (const [id, r] of Object.entries(t.template.Resources)) {
      resources[qualified(t, id)] = {
        ...r,
        ...(r.Properties ? { Properties: resolve(r.Properties, t) as Record<string, unknown> } : {}),
        ...(r.DependsOn ? { DependsOn: [r.DependsOn].flat().map((d) => qualified(t, d)) } : {}),
      };
    }
  }
  const parent = templates.find((t) => !t.parent)!;
  return { Resources: resources, Outputs: resolve(parent.template.Outputs ?? {}, parent) as CfnTemplate['Outputs'] };
}

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
  new Map(
    Object.keys(resources)
      .filter((id) => resources[id]!.Type === 'AWS::IAM::Role')
      .map((id) => [id, statementsOf(resources, id)]),
  );
