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
import type { EntityType } from '../hierarchy.ts';

const PRODUCT_HIERARCHY = ['product', 'component', 'feature', 'subfeature'] as const satisfies readonly EntityType[];
const OKR = ['initiative', 'objective', 'keyResult'] as const satisfies readonly EntityType[];

/**
 * The built-in statuses (the service specification has no status configuration endpoint), one list
 * for the workspace as Productboard's status values are: each is assigned to the entity types that
 * take it (its `assignedEntityTypes`), and a type's status set is the statuses assigned to it
 * (lib/domain/statuses.ts). Names are unique, so a name names one status. Written by name or id.
 */
export const STATUSES = [
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a01', name: 'New idea', types: PRODUCT_HIERARCHY },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a02', name: 'Candidate', types: PRODUCT_HIERARCHY },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a03', name: 'Planned', types: [...PRODUCT_HIERARCHY, 'initiative'] },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a04', name: 'In progress', types: [...PRODUCT_HIERARCHY, ...OKR, 'release'] },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a05', name: 'Released', types: PRODUCT_HIERARCHY },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a06', name: "Won't do", types: [...PRODUCT_HIERARCHY, 'initiative'] },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a07', name: 'Not started', types: OKR },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a08', name: 'Completed', types: [...OKR, 'release'] },
  { id: '5b1f0c3a-0c52-4a5e-9e53-0f3b7f0d0a09', name: 'Upcoming', types: ['release'] },
] as const satisfies ReadonlyArray<{ id: string; name: string; types: readonly EntityType[] }>;

export const GRANULARITIES = ['none', 'day', 'week', 'month', 'quarter', 'year'] as const;
export const MAX_NAME = 255;
export const MAX_TEXT = 100_000;
export const MAX_TAGS = 100;
const MAX_DOMAIN = 253;

/** A refusal inside a transform: the issue at `path` (relative to the value), and no value. */
function refuse(ctx: z.core.ParsePayload, message: string, path: PropertyKey[] = []): never {
  ctx.issues.push({ code: 'custom', message, input: ctx.value, path });
  return z.NEVER;
}

// ---- Read shapes: what a read answers.

export const Name = /* @__PURE__ */ (() => nonBlank(MAX_NAME))();
export const Html = /* @__PURE__ */ (() => doc(checkedString(z.maxLength(MAX_TEXT)), 'HTML'))();
export const Status = /* @__PURE__ */ (() => strictObject({ id: Uuid, name: z.string() }))();
export const Owner = /* @__PURE__ */ (() => doc(strictObject({ id: Uuid, email: Email }), 'A member of the workspace'))();
export const Tag = /* @__PURE__ */ (() => strictObject({ name: nonBlank(MAX_NAME) }))();
export const Tags = /* @__PURE__ */ (() => checkedArray(Tag, z.maxLength(MAX_TAGS)))();
export const Timeframe = /* @__PURE__ */ (() => strictObject({ startDate: IsoDate, endDate: IsoDate, granularity: z.enum(GRANULARITIES) }))();
export const Archived = /* @__PURE__ */ (() => z.boolean())();
export const Processed = /* @__PURE__ */ (() => z.boolean())();
export const CustomerEmail = Email;
const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
export const Domain = /* @__PURE__ */ (() => checkedFormat('hostname', DOMAIN_PATTERN, z.maxLength(MAX_DOMAIN), z.toLowerCase()))();

// ---- Write shapes: what a create or update may send for a field (null clears, on update).

/** `{id}` or `{name}` (case-insensitive) of a built-in status; both must name the same one. Stored as `{id, name}`. */
export const StatusInput = /* @__PURE__ */ (() => z.pipe(
  strictObject({ id: z.optional(Uuid), name: z.optional(checkedString(z.minLength(1))) }),
  z.transform((v, ctx) => {
    if (v.id !== undefined) {
      const byId = STATUSES.find((s) => s.id === v.id);
      if (!byId) return refuse(ctx, `is no status id; the statuses are ${STATUSES.map((s) => `${s.name} (${s.id})`).join(', ')}`, ['id']);
      if (v.name !== undefined && v.name.toLowerCase() !== byId.name.toLowerCase()) return refuse(ctx, `is '${v.name.slice(0, 100)}', but status ${byId.id} is named '${byId.name}'`, ['name']);
      return { id: byId.id, name: byId.name };
    }
    const name = v.name;
    if (name === undefined) return refuse(ctx, 'gives neither the id nor the name of a status');
    const byName = STATUSES.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!byName) return refuse(ctx, `No status named '${name.slice(0, 100)}'; known: ${STATUSES.map((s) => s.name).join(', ')}.`, ['name']);
    return { id: byName.id, name: byName.name };
  }),
))();

/** A member by `email`, `id` or both (then both must name the same member: lib/store/field-refs.ts resolves it). */
export const MemberInput = /* @__PURE__ */ (() => strictObject({ id: z.optional(Uuid), email: z.optional(checkedString(z.minLength(1), z.maxLength(MAX_EMAIL))) },
    z.refine((v) => v.id !== undefined || v.email !== undefined, { error: 'names no member: give its email, its id or both' }),
  ))();
export type MemberInput = z.output<typeof MemberInput>;

/** Tags by name; a name given twice is kept once. */
export const TagsInput = /* @__PURE__ */ (() => z.pipe(
  Tags,
  z.transform((tags) => [...new Map(tags.map((t) => [t.name, { name: t.name }])).values()]),
))();

/** A timeframe, `granularity` 'none' when omitted; it may not end before it starts. */
export const TimeframeInput = /* @__PURE__ */ (() => strictObject({ startDate: IsoDate, endDate: IsoDate, granularity: z._default(z.enum(GRANULARITIES), 'none') },
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
export const Content = /* @__PURE__ */ (() => z.union([Html, ConversationContent]))();
export const ContentInput = /* @__PURE__ */ (() => z.union([Html, ConversationPartsInput], { error: CONTENT_SHAPES }))();

/**
 * A standard field: its read shape and its write shape; a list field also what `addItems` and
 * `removeItems` take (./patch.ts), given when a patch first needs them (few requests do).
 */
export interface StandardField {
  read: z.ZodMiniType;
  write: z.ZodMiniType;
  items?: () => Record<'addItems' | 'removeItems', z.ZodMiniType>;
}
const field = (read: z.ZodMiniType, write: z.ZodMiniType = read, items?: StandardField['items']): StandardField => ({ read, write, items });
const sharedFields = () => ({ name: field(Name), owner: field(Owner, MemberInput), tags: field(Tags, TagsInput, () => ({ addItems: TagsInput, removeItems: TagsInput })), archived: field(Archived) });

// A table per kind of record, so that a write body built from one (./entity-writes.ts createFields)
// carries the schemas of that kind's fields only: a note's create has no status or timeframe, an
// entity's no conversation parts.
/** The standard fields entities have (which type has which: lib/domain/entity-fields.ts ENTITY_FIELDS). */
export const ENTITY_STANDARD_FIELDS = /* @__PURE__ */ (() => ({
  ...sharedFields(),
  description: field(Html),
  status: field(Status, StatusInput),
  timeframe: field(Timeframe, TimeframeInput),
  email: field(CustomerEmail),
  domain: field(Domain),
}))();

/** The standard fields notes have (lib/domain/entity-fields.ts NOTE_FIELDS). */
export const NOTE_STANDARD_FIELDS = /* @__PURE__ */ (() => ({
  ...sharedFields(),
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
