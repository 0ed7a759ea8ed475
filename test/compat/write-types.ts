// Regenerates test/compat/generated/*.ts from Productboard's documents: `npm run compat:types`.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generatedTypesUrl, generateTypes } from './generate-types.ts';
import { DOCUMENT_NAMES } from './productboard.ts';

for (const name of DOCUMENT_NAMES) {
  await writeFile(generatedTypesUrl(name), await generateTypes(name));
  console.log(`wrote ${fileURLToPath(generatedTypesUrl(name))}`);
}
