// Rewrites a deployed function's stack trace to source positions with the map shipped in its code
// package: `npm run --silent decode-stack -- index.mjs.map [trace.txt]` (the trace on stdin when no
// file is named). docs/operations.md, "Reading a stack trace", says where the map comes from.
import { readFile } from 'node:fs/promises';
import type { SourceMapPayload } from 'node:module';
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { sourceStack } from './stack-origins.ts';

const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const [mapFile, traceFile, ...extra] = positionals;
if (!mapFile || extra.length) {
  console.error('Usage: npm run --silent decode-stack -- <index.mjs.map> [trace file; stdin if none]');
  process.exit(2);
}
const payload = JSON.parse(await readFile(mapFile, 'utf8')) as SourceMapPayload;
const trace = traceFile ? await readFile(traceFile, 'utf8') : await text(process.stdin);
process.stdout.write(sourceStack(trace, payload));
