// Writes docs/openapi.json from the route table and the handlers' declarations, the copy the
// function serving it embeds (lib/http/openapi-embedded.ts: brotli, base64), and the standard
// fields' JSON Schemas the configuration routes answer (lib/domain/field-json-schemas.ts):
// `npm run openapi`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { fieldJsonSchemasModule } from './field-json-schemas.ts';
import { openApiDocument } from './openapi-document.ts';

const root = join(import.meta.dirname, '..');
const document = await openApiDocument();
const out = join(root, 'docs', 'openapi.json');
await writeFile(out, JSON.stringify(document, null, 2) + '\n');
console.log(`wrote ${out}`);

// Compressed, the document is a small part of the function's bundle, which so stays near the others (docs/performance.md, "Cold start").
const compressed = brotliCompressSync(JSON.stringify(document), { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 } });
const embedded = join(root, 'lib', 'http', 'openapi-embedded.ts');
await writeFile(
  embedded,
  `// Written by \`npm run openapi\`: docs/openapi.json, brotli-compressed and base64-encoded. Do not edit.\nexport const DOCUMENT_BROTLI_BASE64 =\n  '${compressed.toString('base64')}';\n`,
);
console.log(`wrote ${embedded}`);

const fieldSchemas = join(root, 'lib', 'domain', 'field-json-schemas.ts');
await writeFile(fieldSchemas, fieldJsonSchemasModule());
console.log(`wrote ${fieldSchemas}`);
