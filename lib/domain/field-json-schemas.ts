// Written by `npm run openapi` (scripts/field-json-schemas.ts): the JSON Schema (2020-12, without
// `$schema`) of each standard field's value as reads give it, from its zod schema in
// lib/domain/schemas/field-values.ts. Do not edit.
import type { StandardFieldId } from './schemas/field-values.ts';
import type { NoteType } from './schemas/note.ts';

type JsonSchema = Readonly<Record<string, unknown>>;

/** Each standard field's read shape but a note's content and tags (below). */
export const STANDARD_FIELD_SCHEMAS: Readonly<Record<Exclude<StandardFieldId, 'content'>, JsonSchema>> = {
  "name": {"type":"string","minLength":1,"maxLength":255,"pattern":"[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]"},
  "description": {"type":"string","maxLength":100000,"description":"HTML"},
  "status": {"type":"object","properties":{"id":{"type":"string","format":"uuid","pattern":"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"},"name":{"type":"string"}},"required":["id","name"],"additionalProperties":false},
  "owner": {"type":"object","properties":{"id":{"type":"string","format":"uuid","pattern":"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"},"email":{"type":"string","maxLength":254,"format":"idn-email","pattern":"^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\p{C}\\p{Z}])+(?:\\.(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\p{C}\\p{Z}])+)*@(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}])(?:-*(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}]))*(?:\\.(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}])(?:-*(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}]))*)+$"}},"required":["id","email"],"additionalProperties":false,"description":"A member of the workspace"},
  "tags": {"maxItems":100,"type":"array","items":{"type":"object","properties":{"id":{"type":"string","format":"uuid","pattern":"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"},"name":{"type":"string","minLength":1,"maxLength":255,"pattern":"[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]"}},"required":["id","name"],"additionalProperties":false}},
  "teams": {"maxItems":100,"type":"array","items":{"type":"object","properties":{"id":{"type":"string","format":"uuid","pattern":"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"},"name":{"type":"string","minLength":1,"maxLength":255,"pattern":"[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]"}},"required":["id","name"],"additionalProperties":false}},
  "timeframe": {"type":"object","properties":{"startDate":{"type":"string","format":"date","pattern":"^\\d{4}-\\d{2}-\\d{2}$"},"endDate":{"type":"string","format":"date","pattern":"^\\d{4}-\\d{2}-\\d{2}$"},"granularity":{"type":"string","enum":["year","quarter","month","day"]}},"required":["startDate","endDate"],"additionalProperties":false},
  "archived": {"type":"boolean"},
  "processed": {"type":"boolean"},
  "creator": {"type":"object","properties":{"id":{"type":"string","format":"uuid","pattern":"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"},"email":{"type":"string","maxLength":254,"format":"idn-email","pattern":"^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\p{C}\\p{Z}])+(?:\\.(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\p{C}\\p{Z}])+)*@(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}])(?:-*(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}]))*(?:\\.(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}])(?:-*(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}]))*)+$"}},"required":["id","email"],"additionalProperties":false,"description":"A member of the workspace"},
  "email": {"anyOf":[{"type":"string","maxLength":254,"format":"idn-email","pattern":"^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\p{C}\\p{Z}])+(?:\\.(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\\x00-\\x7F\\p{C}\\p{Z}])+)*@(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}])(?:-*(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}]))*(?:\\.(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}])(?:-*(?:[A-Za-z0-9]|[^\\x00-\\x7F\\p{C}\\p{Z}]))*)+$"},{"type":"string","const":"[redacted]","description":"The value, without the users:pii:read scope"}]},
  "domain": {"type":"string","maxLength":253,"format":"hostname","pattern":"^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$"},
};

/** A note's content, by note type: its type's own shape. */
export const NOTE_CONTENT_SCHEMAS: Readonly<Record<NoteType, JsonSchema>> = {
  "textNote": {"type":"string","maxLength":100000,"description":"HTML"},
  "conversationNote": {"maxItems":50,"type":"array","items":{"type":"object","properties":{"externalId":{"type":"string","minLength":1,"maxLength":100,"description":"The part's id in the external system; a part is told apart by it"},"authorType":{"type":"string","enum":["customer","agent"]},"authorName":{"type":"string","maxLength":100},"content":{"type":"string","maxLength":1000},"timestamp":{"type":"string","format":"date-time","pattern":"^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$"}},"required":["externalId","authorType","content","timestamp"],"additionalProperties":false},"description":"The parts of the conversation, in the order given"},
};

/** A note's tags: labels by name (an entity's are the workspace's tag values, above). */
export const NOTE_TAGS_SCHEMA: JsonSchema = {"maxItems":100,"type":"array","items":{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":255,"pattern":"[^\\s\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB]"}},"required":["name"],"additionalProperties":false}};
