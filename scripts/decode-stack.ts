// Rewrites a deployed function's stack trace to source positions with the map shipped in its code
// package: `npm run --silent decode-stack -- index.mjs.map [trace.txt]` (the trace on stdin when no
// file is named). docs/operations.md, "Reading a stack trace", says where the map comes from.
import { readFile } from 'node:fs/promises';
import type { SourceMapPayload } from 'node:module';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { sourceStack } from './stack-origins.ts';

const USAGE = 'Usage: npm run --silent decode-stack -- <index.mjs.map> [trace file; stdin if none]';

/** The map file's source map, or why it is not one. */
async function mapOf(file: string): Promise<SourceMapPayload> {
  const payload = JSON.parse(await readFile(file, 'utf8')) as Partial<SourceMapPayload>;
  if (payload.version !== 3 || !Array.isArray(payload.sources) || typeof payload.mappings !== 'string') {
    throw new Error(`${file} is not a source map (version 3, with sources and mappings)`);
  }
  return payload as SourceMapPayload;
}

try {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [mapFile, traceFile, ...extra] = positionals;
  if (!mapFile || extra.length) throw new Error(USAGE);
  const payload = await mapOf(mapFile);
  const trace = traceFile ? await readFile(traceFile, 'utf8') : await text(process.stdin);
  process.stdout.write(sourceStack(trace, payload));
} catch (err) {
  console.error(`decode-stack: ${(err as Error).message}`);
  process.exitCode = 2;
}
