// The CDK app: `npx cdk synth` / `npx cdk deploy`. Environment-agnostic (account and region from
// the deploying credentials), no lookups, so it synthesizes offline; options come from context
// (infra/settings.ts, docs/operations.md).
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ROUTES } from '#lib/routes.ts';
import { WORKERS } from '#lib/workers.ts';
import { readSettings } from './settings.ts';
import { PmApiStack } from './stack.ts';

const app = new App();
// cdk-nag runs on every synth: a new unacknowledged finding fails it (and CI).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
const settings = readSettings(app.node);
new PmApiStack(app, `PmApi-${settings.stage}`, {
  settings,
  routes: ROUTES,
  workers: WORKERS,
  description: `Product-management API v2 (${settings.stage})`,
});
app.synth();
