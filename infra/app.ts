// The CDK app: `npx cdk synth` / `npx cdk deploy`. Environment-agnostic (account and region from
// the deploying credentials), no lookups, so it synthesizes offline; options come from context
// (infra/settings.ts, docs/operations.md).
import { App } from 'aws-cdk-lib';
import { readSettings } from './settings.ts';
import { PmApiStack } from './stack.ts';

const app = new App();
const settings = readSettings(app.node);
new PmApiStack(app, `PmApi-${settings.stage}`, {
  settings,
  description: `Product-management API v2 (${settings.stage})`,
});
app.synth();
