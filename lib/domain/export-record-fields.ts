// The own fields of a workspace export's records other than entities and notes (those are
// ./export-file-check.ts's), held to what the API takes for them: the schemas it reads a team's, a
// tag value's, a webhook subscription's and a comment's create with, and for a custom field (made by
// `admin field add`) the types it is defined on and the rule of a name; and the names the API keeps
// to one record of a kind (the restore writes a guard item for each: a second would take it over).
// A member's e-mail and role are the line's own schema's (./schemas/workspace-export.ts).
import * as z from 'zod/mini';
import { CUSTOM_FIELD_TYPES } from './configurations.ts';
import { MAX_SELECT_VALUES, nameKey, repeatedName } from './field-values.ts';
import { inputProblem } from './input.ts';
import { movedRecordSizeProblem } from './record-size.ts';
import { checkedArray } from './schemas/build.ts';
import { CommentContent } from './schemas/comment.ts';
import { Name } from './schemas/field-values.ts';
import { TeamFields } from './schemas/team.ts';
import { FieldValueFields } from './schemas/value-sets.ts';
import { EventList, WebhookName, WebhookUrl } from './schemas/webhooks.ts';
import type { MoveRecord } from './schemas/workspace-export.ts';

/** A select field's options as the field-values API takes them: at most its limit, each a value's name (and color) it would create. */
const SelectOptions = /* @__PURE__ */ (() => z.optional(checkedArray(FieldValueFields, z.maxLength(MAX_SELECT_VALUES))))();
const CustomFieldFields = /* @__PURE__ */ (() =>
  z.object({ entityType: z.enum(CUSTOM_FIELD_TYPES), name: Name, options: SelectOptions, values: SelectOptions }))();
const WebhookFields = /* @__PURE__ */ (() => z.object({ name: WebhookName, events: EventList, url: WebhookUrl }))();
const CommentFields = /* @__PURE__ */ (() => z.object({ content: CommentContent }))();

/** The schema a record's fields are held to, and those fields in the shape it reads (a webhook's events as a create lists them). */
function ruleOf(record: MoveRecord): { schema: z.ZodMiniType; fields: unknown } | undefined {
  switch (record.kind) {
    case 'team':
      return { schema: TeamFields, fields: { name: record.name, handle: record.handle, description: record.description } };
    case 'tagValue':
      return { schema: FieldValueFields, fields: { name: record.name, color: record.color } };
    case 'customField':
      return {
        schema: CustomFieldFields,
        fields: {
          entityType: record.entityType,
          name: record.name,
          options: record.options?.map((name) => ({ name })),
          values: record.values?.map(({ name, color }) => ({ name, color })),
        },
      };
    case 'webhook':
      return { schema: WebhookFields, fields: { name: record.name, events: record.events.map((eventType) => ({ eventType })), url: record.url } };
    case 'comment':
      return { schema: CommentFields, fields: { content: record.content } };
    default:
      return undefined;
  }
}

/** What the API would refuse in a record's own fields, in its words ('/name' must be …); undefined when nothing. */
export function recordFieldsProblem(record: MoveRecord): string | undefined {
  // Entities and notes are held to what their fields may take (./export-file-check.ts); any other
  // record is one item too, which the table would refuse part-way through a restore.
  const tooLarge = record.kind === 'entity' || record.kind === 'note' ? undefined : movedRecordSizeProblem(record);
  if (tooLarge) return tooLarge;
  const rule = ruleOf(record);
  if (!rule) return undefined;
  const problem = inputProblem(rule.schema, rule.fields);
  if (problem || record.kind !== 'customField') return problem;
  return (
    sameOptionProblem(record.options ?? [], 'options') ??
    sameOptionProblem(
      (record.values ?? []).map((v) => v.name),
      'values',
    )
  );
}

/** Two options of one field whose names differ in case at most: the field-values API keeps a field to one of them. */
function sameOptionProblem(names: readonly string[], at: string): string | undefined {
  const twice = repeatedName(names);
  return (
    twice &&
    `'/${at}/${twice.repeat}/name' is '${names[twice.repeat]!.slice(0, 100)}', and '/${at}/${twice.first}/name' is '${names[twice.first]!.slice(0, 100)}': a field's options have names unique regardless of case`
  );
}

/** A name the API keeps to one record: the key it is compared by, where it is in the record, and the refusal of a second one. */
interface UniqueName {
  key: string;
  at: string;
  value: string;
  refusal: (first: { value: string; line: number }) => string;
}

const CASE = ' (names are compared case-insensitively)';

/** The names of a record that no other record of its kind may have (worded as the API refuses a second one). */
export function uniqueNamesOf(record: MoveRecord): UniqueName[] {
  switch (record.kind) {
    case 'team':
      return [
        {
          key: `team name ${nameKey(record.name)}`,
          at: 'name',
          value: record.name,
          refusal: (f) => `another team named '${f.value}' is on line ${f.line}; team names and handles are unique${CASE}`,
        },
        {
          key: `team handle ${record.handle}`,
          at: 'handle',
          value: record.handle,
          refusal: (f) => `another team with the handle '${f.value}' is on line ${f.line}; team names and handles are unique`,
        },
      ];
    case 'member':
      return [
        {
          key: `member ${record.email.toLowerCase()}`,
          at: 'email',
          value: record.email,
          refusal: (f) => `another member with the e-mail '${f.value}' is on line ${f.line} (e-mails are compared lower-cased)`,
        },
      ];
    case 'customField':
      return [
        {
          key: `customField ${record.entityType} ${nameKey(record.name)}`,
          at: 'name',
          value: record.name,
          refusal: (f) => `another custom field named '${f.value}' on ${record.entityType} is on line ${f.line}${CASE}`,
        },
      ];
    case 'tagValue':
      return [
        {
          key: `tagValue ${nameKey(record.name)}`,
          at: 'name',
          value: record.name,
          refusal: (f) => `another tag value named '${f.value}' is on line ${f.line}${CASE}`,
        },
      ];
    default:
      return [];
  }
}
