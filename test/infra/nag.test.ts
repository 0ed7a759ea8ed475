// cdk-nag's AwsSolutions pack (v3: a CDK policy-validation plugin) over the whole stack, its nested
// stacks included (the pack walks the construct tree). Every finding is either fixed in the stack
// or acknowledged there with a reason (infra/stack.ts NAG_ACKNOWLEDGEMENTS); a new finding fails
// this test until one of the two happens.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it, vi } from 'vitest';
import { ROUTES } from '#lib/routes.ts';
import { WORKERS, type Worker } from '#lib/workers.ts';
import { readSettings } from '../../infra/settings.ts';
import { NAG_ACKNOWLEDGEMENTS, PmApiStack } from '../../infra/stack.ts';

// Each synth takes seconds, more on a loaded machine; a slow synth is not a failure.
vi.setConfig({ testTimeout: 120_000 });

function appWithNag(context: Record<string, unknown> = {}, workers: readonly Worker[] = WORKERS) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const pack = new AwsSolutionsChecks(app);
  Validations.of(app).addPlugins(pack);
  const stack = new PmApiStack(app, 'PmApi-nag', { settings: readSettings(app.node), routes: ROUTES, workers });
  return { app, pack, stack };
}

const findings = (report: ReturnType<AwsSolutionsChecks['validateScope']>) =>
  report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.resourceLogicalId ?? r.templatePath).join(', ')}`);

describe('cdk-nag AwsSolutions', () => {
  it('the stack has no unacknowledged finding, and synth with the plugin registered succeeds', () => {
    const { app, pack, stack } = appWithNag();
    expect(findings(pack.validateScope(stack))).toEqual([]);
    expect(() => app.synth()).not.toThrow();
  });

  it('also with a custom domain and alarm topic', () => {
    const { pack, stack } = appWithNag({
      domainName: 'api.example.com',
      certificateArn: 'arn:aws:acm:eu-west-1:111122223333:certificate/abc',
      alarmTopicArn: 'arn:aws:sns:eu-west-1:111122223333:alarms',
      apiGatewayCloudWatchRole: 'false',
    });
    expect(findings(pack.validateScope(stack))).toEqual([]);
  });

  it('also with a scheduled worker (its rule, invoke permission and asynchronous-invocation settings)', () => {
    const sweeper: Worker = {
      id: 'sweepPending',
      handler: 'functions/events/stream.ts',
      source: 'schedule',
      everyMinutes: 5,
      tableActions: ['dynamodb:Query', 'dynamodb:BatchWriteItem'],
      secret: false,
      summary: 'Sweeps pending clean-up work',
    };
    const { pack, stack } = appWithNag({}, [...WORKERS, sweeper]);
    expect(stack.events.functions.map(({ worker }) => worker.source)).toContain('schedule');
    expect(findings(pack.validateScope(stack))).toEqual([]);
  });

  it('every acknowledgement names one rule and gives a reason', () => {
    const all = Object.values(NAG_ACKNOWLEDGEMENTS).flat();
    expect(all.length).toBeGreaterThan(0);
    for (const a of all) {
      expect(a.id).toMatch(/^AwsSolutions-[A-Z]+\d+(\[[^\]]+\])?$/);
      expect(a.reason.length, a.id).toBeGreaterThan(60);
    }
  });
});
