// Writes docs/openapi.json from the route table: `npm run openapi`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildOpenApi } from '#lib/http/openapi.ts';

const out = join(import.meta.dirname, '..', 'docs', 'openapi.json');
await writeFile(out, JSON.stringify(buildOpenApi(), null, 2) + '\n');
console.log(`wrote ${out}`);
