// The functions run without --enable-source-maps (infra/service-function.ts), so the stack an
// error logs names positions in the minified bundle. The map each bundle ships beside it (the
// stack's bundling: infra/bundling.ts) turns them back into source positions with
// `npm run decode-stack`, as an operator runs it on a stack copied from the logs.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stackBundling, esbuildOptions, PROJECT_ROOT } from '../../infra/bundling.ts';

let dir: string;
/** What the bundle printed: the stack of an error thrown in lib/, as the deployed runtime (no source-map support) writes it. */
let stack: string;
/** The 1-based line of lib/auth/service-secret.ts that throws it. */
let throwingLine: number;

const runDecodeStack = (args: string[], input: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'scripts/decode-stack.ts'), ...args], { input, encoding: 'utf8' });

const decodeStack = (input: string) => {
  const r = runDecodeStack([join(dir, 'index.mjs.map')], input);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
};

beforeAll(async () => {
  // Where `cdk synth` bundles: a directory of cdk.out, so the map names sources as a deployed one does (`../../lib/…`).
  await mkdir(join(PROJECT_ROOT, 'cdk.out'), { recursive: true });
  dir = await mkdtemp(join(PROJECT_ROOT, 'cdk.out', 'stack-trace-'));
  expect(stackBundling()).toMatchObject({ minify: true, sourceMap: true, sourcesContent: false });
  // A lib/ module bundled as a function is: the stack's esbuild options, with its source map.
  await build({
    ...esbuildOptions(),
    stdin: {
      contents: "import { serviceSecret } from '#lib/auth/service-secret.ts';\nserviceSecret().catch((e) => process.stdout.write(e.stack));\n",
      resolveDir: PROJECT_ROOT,
      loader: 'ts',
    },
    outfile: join(dir, 'index.mjs'),
    sourcemap: true,
    sourcesContent: false,
  });
  const env = { ...process.env };
  for (const name of ['SERVICE_KEY_FILE', 'SERVICE_SECRET_ID', 'NODE_OPTIONS']) delete env[name];
  const run = spawnSync(process.execPath, [join(dir, 'index.mjs')], { env, encoding: 'utf8' });
  stack = run.stdout;
  const source = (await readFile(join(PROJECT_ROOT, 'lib/auth/service-secret.ts'), 'utf8')).split('\n');
  throwingLine = source.findIndex((l) => l.includes('new Error(`No service secret configured')) + 1;
  expect(throwingLine).toBeGreaterThan(0);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a deployed stack trace', () => {
  it('names positions in the minified bundle', () => {
    expect(stack).toMatch(/^Error: No service secret configured: set SERVICE_KEY_FILE/);
    expect(stack).toMatch(/\n {4}at .*index\.mjs:\d+:\d+\)?/);
    expect(stack).not.toContain('service-secret.ts');
  });

  it('decode-stack rewrites each position to its source file, line and column', () => {
    const decoded = decodeStack(stack);
    const frames = decoded.split('\n').filter((l) => l.startsWith('    at '));
    expect(frames[0]).toMatch(new RegExp(`^ {4}at \\S+ \\(lib/auth/service-secret\\.ts:${throwingLine}:\\d+\\)$`));
    // Every frame in the bundle got a source position; none is left pointing into it.
    expect(decoded).not.toMatch(/index\.mjs:\d+/);
    expect(decoded.split('\n')[0]).toBe(stack.split('\n')[0]);
  });

  it('works on the stack inside a JSON log line, leaving the rest of the line as it was', () => {
    const line = JSON.stringify({ level: 'ERROR', message: 'unexpected error', error: { name: 'Error', stack } });
    const decoded = decodeStack(line);
    expect(decoded).toContain(`(lib/auth/service-secret.ts:${throwingLine}:`);
    expect(decoded).not.toMatch(/index\.mjs:\d+/);
    expect(JSON.parse(decoded)).toMatchObject({ level: 'ERROR', message: 'unexpected error', error: { name: 'Error' } });
  });

  it('refuses a file that is not a source map, and a missing argument, with the reason and status 2', () => {
    const notMap = runDecodeStack([join(dir, 'index.mjs')], stack);
    expect([notMap.status, notMap.stdout]).toEqual([2, '']);
    expect(notMap.stderr).toMatch(/^decode-stack: /);
    const json = runDecodeStack([join(PROJECT_ROOT, 'package.json')], stack);
    expect([json.status, json.stdout, json.stderr]).toEqual([
      2,
      '',
      `decode-stack: ${join(PROJECT_ROOT, 'package.json')} is not a source map (version 3, with sources and mappings)\n`,
    ]);
    const none = runDecodeStack([], stack);
    expect([none.status, none.stderr]).toEqual([2, 'decode-stack: Usage: npm run --silent decode-stack -- <index.mjs.map> [trace file; stdin if none]\n']);
  });
});
