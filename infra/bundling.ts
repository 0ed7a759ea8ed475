// How every function of the stack is bundled (esbuild through NodejsFunction), shared with
// infra/bundle-sizes.ts and the bundle test so what they measure and load is what deploys.
import { join } from 'node:path';
import { OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { mcp } from '#lib/routes.ts';

export const PROJECT_ROOT = join(import.meta.dirname, '..');

/** Every bundle is ESM; bundled CommonJS dependencies still call require() for Node built-ins. */
const ESM_REQUIRE_BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/**
 * Modules deployed bundles load something else instead of: the response schemas exist for the OpenAPI
 * document only (lib/domain/schemas/responses.ts); the service key file is the local stack's key
 * source (lib/auth/service-key-file.ts; deployed functions use KMS); the AWS SDK's DynamoDB client and
 * credential chain (lib/store/calls-sdk.ts, lib/aws-credentials.ts: every call goes through the lean
 * sender, signed with the Lambda runtime's credentials — their parse is most of a cold start); the
 * MCP SDK's packages that the `mcp` function never runs (lib/http/mcp/sdk-unused.bundled.cjs; no
 * other function imports them). Paths relative to
 * the working directory, which is the project root for the stack's bundling and for the scripts and
 * tests that build with these.
 */
const MCP_UNUSED = './lib/http/mcp/sdk-unused.bundled.cjs';
const ALIASES = {
  '#lib/domain/schemas/responses.ts': './lib/domain/schemas/responses.bundled.cjs',
  '#lib/auth/service-key-file.ts': './lib/auth/service-key-file.bundled.cjs',
  '#lib/store/calls-sdk.ts': './lib/store/calls-sdk.bundled.ts',
  '#lib/aws-credentials.ts': './lib/aws-credentials.bundled.ts',
  ajv: MCP_UNUSED,
  'ajv-formats': MCP_UNUSED,
  'zod/v3': MCP_UNUSED,
  'zod-to-json-schema': MCP_UNUSED,
};
/**
 * doc() as the identity (lib/domain/schemas/doc.bundled.ts) in every function but `mcp`, whose tool
 * listing turns the schemas into JSON Schema at run time, with their ids and descriptions.
 */
const aliasesFor = (handler: string) => (handler === mcp.handler ? ALIASES : { ...ALIASES, '#lib/domain/schemas/doc.ts': './lib/domain/schemas/doc.bundled.ts' });

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
  externalModules: [] as string[],
  banner: ESM_REQUIRE_BANNER,
  tsconfig: join(PROJECT_ROOT, 'tsconfig.json'),
} as const;

/** The stack's bundling (NodejsFunction `bundling`) of the function whose handler, relative to the project root, is `handler`. */
export const bundlingFor = (handler: string) => ({
  ...BUNDLING,
  externalModules: [...BUNDLING.externalModules],
  mainFields: [...BUNDLING.mainFields],
  esbuildArgs: { '--alias': Object.entries(aliasesFor(handler)).map(([from, to]) => `${from}=${to}`) },
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

/** The same as esbuild build options, for the function whose handler is `handler`. */
export const esbuildOptionsFor = (handler: string): BuildOptions => ({ ...ESBUILD_OPTIONS, alias: aliasesFor(handler) });
