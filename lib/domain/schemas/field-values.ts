// Values of the standard fields of entities and notes: how each is written (checked, then stored in
// its API shape) and how reads answer it. Configurations publish the read shapes as each field's
// JSON Schema (lib/domain/configurations.ts). Custom fields (uuid keys) are the workspace's: their
// values are checked by lib/domain/configurations.ts customValueCheck.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedFormat, checkedString, strictObject } from './build.ts';
import { Email, IsoDate, MAX_EMAIL, nonBlank, Uuid } from './common.ts';
import { ConversationContent, conversationPartRefs, ConversationPartsInput, MAX_PARTS } from './conversation.ts';
import { REDACTED } from '../member-view.ts';

/** How precisely a timeframe is meant: Productboard's four levels. */
const GRANULARITIES = ['year', 'quarter', 'month', 'day'] as const;
export const MAX_NAME = 255;
const MAX_TEXT = 100_000;
export const MAX_TAGS = 100;
/** Teams an entity is assigned to, at most (Productboard's team patch takes 100 references). */
export const MAX_TEAMS = 100;
const MAX_DOMAIN = 253;

// ---- Read shapes: what a read answers.

export const Name = /* @__PURE__ */ (() => nonBlank(MAX_NAME))();
const Html = /* @__PURE__ */ (() => doc(checkedString(z.maxLength(MAX_TEXT)), 'HTML'))();
const Status = /* @__PURE__ */ (() => strictObject({ id: Uuid, name: z.string() }))();
const Owner = /* @__PURE__ */ (() => doc(strictObject({ id: Uuid, email: Email }), 'A member of the workspace'))();
/** A note's tag: a label by name. */
const Tag = /* @__PURE__ */ (() => strictObject({ name: nonBlank(MAX_NAME) }))();
const Tags = /* @__PURE__ */ (() => checkedArray(Tag, z.maxLength(MAX_TAGS)))();
/** An entity's tag: one of the workspace's tag values (GET /v2/entities/fields/tags/values). */
const EntityTag = /* @__PURE__ */ (() => strictObject({ id: Uuid, name: nonBlank(MAX_NAME) }))();
const EntityTags = /* @__PURE__ */ (() => checkedArray(EntityTag, z.maxLength(MAX_TAGS)))();
/** A team an entity is assigned to (GET /v2/teams). */
const TeamValue = /* @__PURE__ */ (() => strictObject({ id: Uuid, name: nonBlank(MAX_NAME) }))();
const TeamValues = /* @__PURE__ */ (() => checkedArray(TeamValue, z.maxLength(MAX_TEAMS)))();
const Timeframe = /* @__PURE__ */ (() => strictObject({ startDate: IsoDate, endDate: IsoDate, granularity: z.optional(z.enum(GRANULARITIES)) }))();
const Archived = /* @__PURE__ */ (() => z.boolean())();
const Processed = /* @__PURE__ */ (() => z.boolean())();
const CustomerEmail = Email;
/** A user's name or e-mail as a reader without users:pii:read sees it. */
const UserRedacted = /* @__PURE__ */ (() => doc(z.literal(REDACTED), 'The value, without the users:pii:read scope'))();
const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const Domain = /* @__PURE__ */ (() => checkedFormat('hostname', DOMAIN_PATTERN, z.maxLength(MAX_DOMAIN), z.toLowerCase()))();

// ---- Write shapes: what a create or update may send for a field (null clears, on update).

/**
 * `{id}` or `{name}` (case-insensitive) of a status of the entity's type; both must name the same
 * one. Which type's values are meant is known once the entity is (lib/domain/statuses.ts statusOf).
 */
export const StatusInput = /* @__PURE__ */ (() =>
  strictObject(
    { id: z.optional(Uuid), name: z.optional(checkedString(z.minLength(1))) },
    z.refine((v) => v.id !== undefined || v.name !== undefined, { error: 'gives neither the id nor the name of a status' }),
  ))();
export type StatusInput = z.output<typeof StatusInput>;

/** A value named by `{id}`, `{name}` or both (both must then name the same one): a tag or a team. */
export const ValueRef = /* @__PURE__ */ (() =>
  strictObject(
    { id: z.optional(Uuid), name: z.optional(nonBlank(MAX_NAME)) },
    z.refine((v) => v.id !== undefined || v.name !== undefined, { error: 'names nothing: give its id, its name or both' }),
  ))();
export type ValueRef = z.output<typeof ValueRef>;
/** An entity's tags as written: by id, or by name (a name the workspace has no tag of creates one). */
const EntityTagsInput = /* @__PURE__ */ (() => checkedArray(ValueRef, z.maxLength(MAX_TAGS)))();
/** An entity's teams as written: by id, or by name (the team must exist). */
const TeamsInput = /* @__PURE__ */ (() => checkedArray(ValueRef, z.maxLength(MAX_TEAMS)))();

/** A member by `email`, `id` or both (then both must name the same member: lib/store/field-refs.ts resolves it). */
export const MemberInput = /* @__PURE__ */ (() =>
  strictObject(
    { id: z.optional(Uuid), email: z.optional(checkedString(z.minLength(1), z.maxLength(MAX_EMAIL))) },
    z.refine((v) => v.id !== undefined || v.email !== undefined, { error: 'names no member: give its email, its id or both' }),
  ))();
export type MemberInput = z.output<typeof MemberInput>;

/**
 * A note's tag as written: `{name}`, or the name alone, as Productboard's "Update note fields"
 * example sends it (its schema has only the object; a label has nothing else to give).
 */
const NoteTagInput = /* @__PURE__ */ (() =>
  z.pipe(
    z.union([nonBlank(MAX_NAME), Tag], { error: 'must be a tag: its name, or an object with its name only ({name})' }),
    z.transform((tag) => (typeof tag === 'string' ? { name: tag } : tag)),
  ))();

/** Tags by name; a name given twice is kept once. */
const TagsInput = /* @__PURE__ */ (() =>
  z.pipe(
    checkedArray(NoteTagInput, z.maxLength(MAX_TAGS)),
    z.transform((tags) => [...new Map(tags.map((t) => [t.name, { name: t.name }])).values()]),
  ))();

/** A timeframe, its `granularity` optional (none is stored when none is given); it may not end before it starts. */
const TimeframeInput = /* @__PURE__ */ (() =>
  strictObject(
    { startDate: IsoDate, endDate: IsoDate, granularity: z.optional(z.enum(GRANULARITIES)) },
    z.superRefine((v, ctx) => {
      if (v.endDate < v.startDate) ctx.addIssue({ code: 'custom', message: `is before startDate ${v.startDate}`, path: ['endDate'], input: v.endDate });
    }),
  ))();

/**
 * A note's content: HTML (a textNote's) or the parts of a conversation (a conversationNote's);
 * which one a note takes is checked against its type (lib/domain/note-content.ts).
 */
/** The content of each note type (lib/domain/schemas/note.ts NOTE_TYPES), as reads answer it. */
export const NOTE_CONTENT = { textNote: Html, conversationNote: ConversationContent } as const;
const CONTENT_SHAPES = `must be HTML text (a textNote's content) or a list of at most ${MAX_PARTS} conversation parts (a conversationNote's content)`;
const Content = /* @__PURE__ */ (() => z.union([Html, ConversationContent]))();
const ContentInput = /* @__PURE__ */ (() => z.union([Html, ConversationPartsInput], { error: CONTENT_SHAPES }))();

/**
 * The parts of a composite field, each a path of its own in a patch (`timeframe.endDate`,
 * Productboard's nested field ids): what a `set` of each takes.
 */
const FIELD_PARTS = {
  timeframe: ['startDate', 'endDate', 'granularity'],
} as const satisfies Partial<Record<string, readonly string[]>>;

/** The parts of the composite field `id` (none for any other field). */
export const partsOf = (id: string): readonly string[] => (Object.hasOwn(FIELD_PARTS, id) ? FIELD_PARTS[id as keyof typeof FIELD_PARTS] : []);

/** The write shape of each part of a timeframe, as the whole timeframe's write shape takes it. */
const timeframeParts = () => ({ startDate: IsoDate, endDate: IsoDate, granularity: z.enum(GRANULARITIES) });

/**
 * A standard field: its read shape and its write shape; a list field also what `addItems` and
 * `removeItems` take (./patch.ts), a composite field what a `set` of each of its parts takes, each
 * given when a patch first needs them (few requests do).
 */
export interface StandardField {
  read: z.ZodMiniType;
  write: z.ZodMiniType;
  items?: () => Record<'addItems' | 'removeItems', z.ZodMiniType>;
  parts?: () => Record<string, z.ZodMiniType>;
}
const field = (read: z.ZodMiniType, write: z.ZodMiniType = read, items?: StandardField['items'], parts?: StandardField['parts']): StandardField => ({
  read,
  write,
  items,
  parts,
});
const sharedFields = () => ({ name: field(Name), owner: field(Owner, MemberInput), archived: field(Archived) });

// A table per kind of record, so that a write body built from one (./entity-writes.ts createFields)
// carries the schemas of that kind's fields only: a note's create has no status or timeframe, an
// entity's no conversation parts.
/** The standard fields entities have (which type has which: lib/domain/entity-fields.ts ENTITY_FIELDS). */
export const ENTITY_STANDARD_FIELDS = /* @__PURE__ */ (() => ({
  ...sharedFields(),
  tags: field(EntityTags, EntityTagsInput, () => ({ addItems: EntityTagsInput, removeItems: EntityTagsInput })),
  teams: field(TeamValues, TeamsInput, () => ({ addItems: TeamsInput, removeItems: TeamsInput })),
  description: field(Html),
  status: field(Status, StatusInput),
  timeframe: field(Timeframe, TimeframeInput, undefined, timeframeParts),
  email: field(z.union([CustomerEmail, UserRedacted]), CustomerEmail),
  domain: field(Domain),
}))();

/** The standard fields notes have (lib/domain/entity-fields.ts NOTE_FIELDS). */
export const NOTE_STANDARD_FIELDS = /* @__PURE__ */ (() => ({
  ...sharedFields(),
  tags: field(Tags, TagsInput, () => ({ addItems: TagsInput, removeItems: TagsInput })),
  processed: field(Processed),
  creator: field(Owner, MemberInput),
  // A list field only on a conversation note (lib/domain/note-content.ts); its parts are removed by externalId.
  content: field(Content, ContentInput, () => ({ addItems: ConversationPartsInput, removeItems: conversationPartRefs() })),
}))();

/** Every standard field, by id. */
export const STANDARD_FIELDS = /* @__PURE__ */ (() => {
  const [entity, note] = [ENTITY_STANDARD_FIELDS, NOTE_STANDARD_FIELDS];
  return {
    name: entity.name,
    description: entity.description,
    status: entity.status,
    owner: entity.owner,
    tags: entity.tags,
    teams: entity.teams,
    timeframe: entity.timeframe,
    archived: entity.archived,
    processed: note.processed,
    creator: note.creator,
    email: entity.email,
    domain: entity.domain,
    content: note.content,
  } as const satisfies Record<string, StandardField>;
})();

export type StandardFieldId = keyof typeof STANDARD_FIELDS;

/** The fields of one kind of record (ENTITY_STANDARD_FIELDS, NOTE_STANDARD_FIELDS). */
export type FieldTable = Readonly<Partial<Record<StandardFieldId, StandardField>>>;
