// How every function of the stack is bundled (esbuild through NodejsFunction), shared with
// infra/bundle-sizes.ts and the bundle test so what they measure and load is what deploys.
//
// A deployed module is the module the tests import: nothing is aliased. Where a function carries
// code it does not run, that code is left unevaluated rather than swapped out. No module of ours is
// reached by import(): esbuild inlines it as a wrapped module and then keeps every export of the
// packages it imports (a whole SDK client with all its commands), so the service key's and
// secret's sources are imported statically and only the configured one is called:
//  - response schemas are reached only by the OpenAPI generator: a handler names its responses
//    (lib/domain/schemas/responses.ts), so no function carries them;
//  - the SDK's credential chain reaches its other sources (SSO, profiles, a process, a web identity
//    token file, the container and instance metadata services) through dynamic import() only when
//    the environment holds no credentials. The Lambda runtime always puts the execution role's in the
//    environment, so those packages are `external` (CREDENTIAL_SOURCES_NEVER_LOADED): the import()
//    stays in the bundle and is never run. The bundle test checks that each is only ever imported
//    dynamically.
// The MCP SDK's own dependencies (ajv, ajv-formats, zod-to-json-schema) are bundled into the `mcp`
// function as the SDK imports them, like any package: no stand-in, so its bundle is what the MCP
// tests load (lib/http/mcp/server.ts passes a validator so none of them is built per request).
import { join } from 'node:path';
import { OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

export const PROJECT_ROOT = join(import.meta.dirname, '..');

/** Every bundle is ESM; bundled CommonJS dependencies still call require() for Node built-ins. */
const ESM_REQUIRE_BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** The credential chain's sources behind AWS_ACCESS_KEY_ID & co, which Lambda always sets (see above). */
export const CREDENTIAL_SOURCES_NEVER_LOADED = [
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-http',
  '@smithy/credential-provider-imds',
];

/** esbuild options shared by the stack and infra/bundle-sizes.ts, so the sizes printed are the deployed ones. */
const BUNDLING = {
  format: OutputFormat.ESM,
  target: 'node22',
  minify: true,
  sourceMap: true,
  sourceMapMode: SourceMapMode.DEFAULT,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Bundle the AWS SDK too: the deployed code runs the versions the tests ran, not the runtime's.
  bundleAwsSDK: true,
  externalModules: CREDENTIAL_SOURCES_NEVER_LOADED,
  banner: ESM_REQUIRE_BANNER,
  tsconfig: join(PROJECT_ROOT, 'tsconfig.json'),
} as const;

/** The stack's bundling (NodejsFunction `bundling`); the same for every function. */
export const stackBundling = () => ({
  ...BUNDLING,
  externalModules: [...BUNDLING.externalModules],
  mainFields: [...BUNDLING.mainFields],
});

/** The same bundling as plain esbuild build options (bundle-sizes and the bundle test build with these). */
const ESBUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLING.target,
  minify: BUNDLING.minify,
  mainFields: [...BUNDLING.mainFields],
  external: [...BUNDLING.externalModules],
  banner: { js: BUNDLING.banner },
  tsconfig: BUNDLING.tsconfig,
  absWorkingDir: PROJECT_ROOT,
  logLevel: 'error',
};

/** The same as esbuild build options, a copy for each build. */
export const esbuildOptions = (): BuildOptions => ({ ...ESBUILD_OPTIONS });
