// The configuration routes answer JSON Schemas without running zod's converter: the standard
// fields' are written at build time (lib/domain/field-json-schemas.ts, `npm run openapi`), the custom
// field kinds' by hand (lib/domain/configurations.ts). Both must stay what the converter gives for
// the zod schemas that reads and writes use.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { customValueJsonSchema, customValueSchema, type CustomFieldDef } from '#lib/domain/configurations.ts';
import { fieldJsonSchemasModule, jsonSchemaOf } from '../../scripts/field-json-schemas.ts';

describe('JSON Schemas of field values', () => {
  it('lib/domain/field-json-schemas.ts is what the standard fields’ zod schemas convert to (npm run openapi)', async () => {
    const written = await readFile(new URL('../../lib/domain/field-json-schemas.ts', import.meta.url), 'utf8');
    expect(written).toBe(fieldJsonSchemasModule());
  });

  it('each custom field kind’s hand-written JSON Schema is what zod converts its value schema to', () => {
    const defs: Array<Pick<CustomFieldDef, 'fieldKind' | 'options'>> = [
      { fieldKind: 'text' },
      { fieldKind: 'number' },
      { fieldKind: 'date' },
      { fieldKind: 'select', options: ['S', 'M', 'L'] },
      { fieldKind: 'select', options: ['only "one", with \\ and é'] },
      { fieldKind: 'select', options: [] },
      { fieldKind: 'select' },
    ];
    for (const def of defs) expect(JSON.stringify(customValueJsonSchema(def)), JSON.stringify(def)).toBe(JSON.stringify(jsonSchemaOf(customValueSchema(def))));
  });
});
