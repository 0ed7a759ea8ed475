// The JSON Schemas of the standard fields' values as reads give them, converted from their zod
// schemas (lib/domain/schemas/field-values.ts) at build time: `npm run openapi` writes them to
// lib/domain/field-json-schemas.ts, which the configuration routes answer from, so that zod's
// converter is not in their bundles (docs/performance.md, "Cold start"). A test holds the written
// module to what this gives.
import * as z from 'zod/mini';
import { NOTE_CONTENT, NOTE_STANDARD_FIELDS, STANDARD_FIELDS } from '#lib/domain/schemas/field-values.ts';
import { NOTE_TYPES } from '#lib/domain/schemas/note.ts';

/** A value schema as JSON Schema, without `$schema` (value shapes carry no ids, so nothing is a $ref). */
export const jsonSchemaOf = (schema: z.ZodMiniType): Record<string, unknown> => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
};

/** An object literal with one line per entry (owner and creator share one shape, as in the zod schemas). */
const literal = (entries: Record<string, unknown>) =>
  `{\n${Object.entries(entries)
    .map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`)
    .join('\n')}\n}`;

/** The text of lib/domain/field-json-schemas.ts. */
export function fieldJsonSchemasModule(): string {
  // Only notes have content (lib/domain/entity-fields.ts), each note type its own shape.
  const standard = Object.fromEntries(Object.entries(STANDARD_FIELDS).flatMap(([id, { read }]) => (id === 'content' ? [] : [[id, jsonSchemaOf(read)]])));
  const content = Object.fromEntries(NOTE_TYPES.map((type) => [type, jsonSchemaOf(NOTE_CONTENT[type])]));
  const noteTags = jsonSchemaOf(NOTE_STANDARD_FIELDS.tags.read);
  return `// Written by \`npm run openapi\` (scripts/field-json-schemas.ts): the JSON Schema (2020-12, without
// \`$schema\`) of each standard field's value as reads give it, from its zod schema in
// lib/domain/schemas/field-values.ts. Do not edit.
import type { StandardFieldId } from './schemas/field-values.ts';
import type { NoteType } from './schemas/note.ts';

type JsonSchema = Readonly<Record<string, unknown>>;

/** Each standard field's read shape but a note's content and tags (below). */
export const STANDARD_FIELD_SCHEMAS: Readonly<Record<Exclude<StandardFieldId, 'content'>, JsonSchema>> = ${literal(standard)};

/** A note's content, by note type: its type's own shape. */
export const NOTE_CONTENT_SCHEMAS: Readonly<Record<NoteType, JsonSchema>> = ${literal(content)};

/** A note's tags: labels by name (an entity's are the workspace's tag values, above). */
export const NOTE_TAGS_SCHEMA: JsonSchema = ${JSON.stringify(noteTags)};
`;
}
