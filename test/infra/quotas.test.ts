// Headroom under CloudFormation's per-template quotas: every template `cdk synth` writes — the
// parent and each nested stack — uses at most 60 % of each quota, today and with 30 more routes in
// any one area (infra/route-areas.ts). Cross-stack references are parameters and outputs, so they
// count here too. docs/operations.md, "The stack's size", has the figures this prints.
import { describe, expect, it, vi } from 'vitest';
import { ROUTES, type Route } from '#lib/routes.ts';
import { synth, type SynthesizedTemplate } from './synth.ts';
import { AREAS, areaOf, type Area } from '../../infra/route-areas.ts';

// Each synth takes seconds, more on a loaded machine; a slow synth is not a failure.
vi.setConfig({ testTimeout: 300_000 });

/**
 * CloudFormation's quotas per template (AWS CloudFormation User Guide, "Understand CloudFormation
 * quotas"). The template body quota is "1 MB" for a template in S3, where CDK puts every one;
 * read as 10^6 bytes, the stricter reading.
 */
const QUOTAS = { resources: 500, outputs: 200, parameters: 200, bytes: 1_000_000 } as const;
const HEADROOM = 0.6;
const MORE_ROUTES = 30;

type Usage = Record<keyof typeof QUOTAS, number>;

const usageOf = ({ template, bytes }: SynthesizedTemplate): Usage => ({
  resources: Object.keys(template.Resources).length,
  outputs: Object.keys(template.Outputs ?? {}).length,
  parameters: Object.keys(template.Parameters ?? {}).length,
  bytes,
});

/** What the CDK CLI asks of every synth: the metadata resource, and each resource's construct path and asset in its metadata. */
const AS_THE_CLI_SYNTHESIZES = { 'aws:cdk:version-reporting': true, 'aws:cdk:enable-path-metadata': true, 'aws:cdk:enable-asset-metadata': true };

/** Each template's use of each quota, as a share of it, for the templates `cdk synth` would write. */
function quotaUse(routes: readonly Route[]) {
  const { templates } = synth(AS_THE_CLI_SYNTHESIZES, { routes });
  return templates.map((t) => {
    const usage = usageOf(t);
    const share = Object.fromEntries(Object.entries(usage).map(([quota, used]) => [quota, used / QUOTAS[quota as keyof Usage]])) as Usage;
    return { template: t.prefix || 'parent', usage, share };
  });
}

const worst = (use: ReturnType<typeof quotaUse>) => Math.max(...use.flatMap(({ share }) => Object.values(share)));

const table = (title: string, use: ReturnType<typeof quotaUse>) =>
  [
    title,
    ...use.map(
      ({ template, usage, share }) =>
        `  ${template.padEnd(17)} ${(Object.keys(QUOTAS) as Array<keyof Usage>).map((q) => `${q} ${usage[q]}/${QUOTAS[q]} (${(share[q] * 100).toFixed(1)} %)`).join('  ')}`,
    ),
  ].join('\n');

/**
 * `count` rows that land in `area` by the rule, each on a path of its own with a parameter (two
 * new path resources in the parent), a JSON write route with CORS (so an OPTIONS method as well):
 * a new route at its most expensive.
 */
function syntheticRoutes(area: Area, count: number): Route[] {
  const base = area.prefixes[0] ?? '/v2';
  return Array.from({ length: count }, (_, i) => ({
    operationId: `synthetic${area.id}${i}`,
    method: 'POST',
    path: `${base}/synthetic${i}/{syntheticId}`,
    handler: 'functions/entities/create.ts',
    auth: 'write:entities',
    body: 'json',
    cors: true,
    table: 'write',
    summary: `A synthetic route of the ${area.id} area`,
  }));
}

const today = quotaUse(ROUTES);

describe("CloudFormation's quotas: every template at most 60 % of each", () => {
  it('the stack as the route table makes it', () => {
    console.log(table('Quota use, lib/routes.ts as it is:', today));
    expect(today.map((u) => u.template)).toEqual(['parent', ...AREAS.map((a) => a.id), 'Events']);
    for (const { template, share } of today) for (const [quota, s] of Object.entries(share)) expect(s, `${template} ${quota}`).toBeLessThanOrEqual(HEADROOM);
  });

  it.each(AREAS.map((area) => [area.id, area] as const))(`with ${MORE_ROUTES} more routes in %s`, (_, area) => {
    const extra = syntheticRoutes(area, MORE_ROUTES);
    expect(extra.every((route) => areaOf(route).id === area.id)).toBe(true);
    const use = quotaUse([...ROUTES, ...extra]);
    console.log(table(`Quota use with ${MORE_ROUTES} more routes in ${area.id}:`, use));
    // The rows landed where the rule says: at least function, role, log group, method, OPTIONS method and permission each.
    const grown = (u: typeof use) => u.find((t) => t.template === area.id)!.usage.resources;
    expect(grown(use) - grown(today)).toBeGreaterThanOrEqual(6 * MORE_ROUTES);
    expect(worst(use), 'the fullest template').toBeLessThanOrEqual(HEADROOM);
  });
});
