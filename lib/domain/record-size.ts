// How much of one DynamoDB item (at most 400 KB, attribute names and values counted in UTF-8) a
// record's own content — an entity's or a note's fields and metadata, as clients write them — may
// take. The rest is for what the service keeps beside it on the same item: keys and index
// attributes, aggregates, a note's copies of its links (lib/store/note-link-copy.ts), a restore's
// marks. Each PATCH is bounded by the body's size, but PATCHes add up.

const MAX_RECORD_CONTENT_BYTES = 320 * 1024;

/**
 * The content's size as UTF-8 JSON. JSON's quotes, colons and commas outweigh DynamoDB's per-
 * attribute overhead for anything but tiny numbers and booleans, and the headroom above covers those.
 */
const contentBytes = (fields: Record<string, unknown>, metadata?: unknown): number =>
  Buffer.byteLength(JSON.stringify(fields)) + (metadata === undefined ? 0 : Buffer.byteLength(JSON.stringify(metadata)));

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * Why a moved record other than an entity or a note (a member, a custom field, a webhook
 * subscription, …) cannot be stored as its one item, or undefined: its whole line counts, as no API
 * write bounds every part of it (a member's name, a select field's replacements).
 */
export function movedRecordSizeProblem(record: unknown): string | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(record));
  if (bytes <= MAX_RECORD_CONTENT_BYTES) return undefined;
  return `The record holds at most ${kib(MAX_RECORD_CONTENT_BYTES)} as JSON (got ${kib(bytes)}).`;
}

/**
 * Why a record with this content cannot be stored (`what`: "Entity <id>", "Note <id>"), or undefined.
 * `stored`: the record's content before a change, measured only when the new one is past the limit:
 * a change that shrinks a record already past it goes through, so it can be brought back under.
 */
export function recordSizeProblem(
  what: string,
  content: { fields: Record<string, unknown>; metadata?: unknown },
  stored?: { fields: Record<string, unknown>; metadata?: unknown },
): string | undefined {
  const bytes = contentBytes(content.fields, content.metadata);
  if (bytes <= MAX_RECORD_CONTENT_BYTES || (stored && bytes <= contentBytes(stored.fields, stored.metadata))) return undefined;
  return `${what} would hold ${kib(bytes)} of fields and metadata; a record holds at most ${kib(MAX_RECORD_CONTENT_BYTES)}. Shorten or clear a field first.`;
}
