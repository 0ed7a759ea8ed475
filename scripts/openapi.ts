// Writes docs/openapi.json from the route table and the handlers' declarations: `npm run openapi`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openApiDocument } from './openapi-document.ts';

const out = join(import.meta.dirname, '..', 'docs', 'openapi.json');
await writeFile(out, JSON.stringify(await openApiDocument(), null, 2) + '\n');
console.log(`wrote ${out}`);
