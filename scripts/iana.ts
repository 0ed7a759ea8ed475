// Writes lib/events/iana/special-purpose.ts from the IANA registries checked in beside it: `npm run iana`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { specialPurposeModule } from './iana-registries.ts';

const out = join(import.meta.dirname, '..', 'lib', 'events', 'iana', 'special-purpose.ts');
await writeFile(out, await specialPurposeModule());
console.log(`wrote ${out}`);
