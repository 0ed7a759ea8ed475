// The workspace export format (docs/export-format.md): gzip-compressed JSON lines, a header, then one
// record per line grouped by kind (MOVE_KINDS order), then an `end` record with the counts. The same
// records are what `admin import productboard` makes of a Productboard workspace (ids then being the
// source's), so one writer restores both (lib/store/move/kinds.ts). Restore reads every line through
// these schemas: a line that does not fit is refused with its line number.
import * as z from 'zod/mini';
import { checkedArray, checkedInt, strictObject } from './build.ts';
import { DateTime, Email, Uuid } from './common.ts';
import { NOTE_TYPES } from './note.ts';
import { WEBHOOK_STATUSES } from './webhooks.ts';
import { CUSTOM_FIELD_KINDS } from '../configurations.ts';
import { EVENT_TYPES } from '../events.ts';
import { SELECT_COLORS } from '../field-values.ts';
import { CUSTOMER_TYPES, ENTITY_TYPES, HIERARCHY_TYPES } from '../hierarchy.ts';
import { RELATION_TYPES } from '../relations.ts';
import { ROLES } from '../scopes.ts';
import { IMPORTANCES } from '../score.ts';

export const EXPORT_FORMAT = 'pm-score-api.workspace-export';
/** Bumped whenever a reader of the previous version would misread a file of the new one. */
export const EXPORT_VERSION = 2;

/** The kinds of record, in the order a file holds them (what a record refers to comes first). */
export const MOVE_KINDS = ['team', 'member', 'customField', 'tagValue', 'entity', 'relation', 'note', 'comment', 'webhook'] as const;
export type MoveKind = (typeof MOVE_KINDS)[number];

const Fields = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();
const Source = /* @__PURE__ */ (() => strictObject({ system: z.optional(z.string()), recordId: z.optional(z.string()), url: z.optional(z.string()) }))();
const Metadata = /* @__PURE__ */ (() => strictObject({ source: z.optional(Source) }))();

export const ExportHeader = /* @__PURE__ */ (() =>
  strictObject({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    /** Names this export for good: a restore of it is resumed by it (with the target's name, and only with the same file). */
    exportId: Uuid,
    exportedAt: DateTime,
    workspace: strictObject({ id: Uuid, name: z.string(), createdAt: DateTime }),
  }))();

export const TeamRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('team'),
    id: z.string(),
    name: z.string(),
    handle: z.string(),
    description: z.optional(z.string()),
    createdAt: DateTime,
    updatedAt: DateTime,
  }))();

export const MemberRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('member'),
    id: z.string(),
    email: Email,
    name: z.string(),
    role: z.enum(ROLES),
    active: z.boolean(),
    createdAt: DateTime,
    /** The teams it belongs to, and since when (a team's members are listed by it). */
    teams: z.optional(z.array(strictObject({ id: z.string(), addedAt: DateTime }))),
  }))();

/** One of the workspace's tag values (an entity's tags name them by id). */
export const TagValueRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('tagValue'),
    id: z.string(),
    name: z.string(),
    color: z.enum(SELECT_COLORS),
    createdAt: DateTime,
  }))();

export const CustomFieldRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('customField'),
    id: z.string(),
    entityType: z.string(),
    name: z.string(),
    fieldKind: z.enum(CUSTOM_FIELD_KINDS),
    options: z.optional(z.array(z.string())),
    /** A select field's options with their ids (records hold an option's id), and the ids of deleted options that read as another. */
    values: z.optional(z.array(strictObject({ id: z.string(), name: z.string(), color: z.enum(SELECT_COLORS), seq: z.optional(checkedInt(z.minimum(0))) }))),
    replaced: z.optional(z.record(z.string(), z.string())),
    createdAt: DateTime,
  }))();

export const EntityRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('entity'),
    id: z.string(),
    type: z.enum(ENTITY_TYPES),
    /** `joinedAt`: when it joined that parent (created under it, or moved there): the order of a parent's children. */
    parent: z.optional(strictObject({ id: z.string(), type: z.enum(ENTITY_TYPES), joinedAt: z.optional(DateTime) })),
    /** API-shaped values; custom fields by their field's id, members ({id, email}) by theirs. */
    fields: Fields,
    metadata: z.optional(Metadata),
    createdAt: DateTime,
    updatedAt: DateTime,
    /** The customer score as the export read it (hierarchy entities): a restore compares its own with it. */
    score: z.optional(checkedInt(z.minimum(0))),
  }))();

/** One relation between two entities (the hierarchy's and the planning ones), once (the other side is its mirror). */
export const RelationRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('relation'),
    entityId: z.string(),
    entityType: z.enum(ENTITY_TYPES),
    type: z.enum(RELATION_TYPES),
    targetId: z.string(),
    targetType: z.enum(ENTITY_TYPES),
    createdAt: DateTime,
  }))();

/** A note's link: the importance and when it was rated (the score's "latest rating" depends on it), to the millisecond. */
const NoteLink = /* @__PURE__ */ (() =>
  strictObject({ entityId: z.string(), entityType: z.enum(HIERARCHY_TYPES), importance: z.enum(IMPORTANCES), ratedAt: DateTime }))();

export const NoteRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('note'),
    id: z.string(),
    type: z.enum(NOTE_TYPES),
    fields: Fields,
    customer: z.optional(strictObject({ id: z.string(), type: z.enum(CUSTOMER_TYPES) })),
    metadata: z.optional(Metadata),
    createdAt: DateTime,
    updatedAt: DateTime,
    links: checkedArray(NoteLink),
  }))();

/** A comment on a note, by a member. */
export const CommentRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('comment'),
    id: z.string(),
    noteId: z.string(),
    content: z.string(),
    author: strictObject({ id: z.string(), email: Email }),
    createdAt: DateTime,
  }))();

/** A subscription without its secrets: restored paused (re-create it to get a new signing secret). */
export const WebhookRecord = /* @__PURE__ */ (() =>
  strictObject({
    kind: z.literal('webhook'),
    id: z.string(),
    name: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    url: z.string(),
    version: z.literal(1),
    status: z.enum(WEBHOOK_STATUSES),
    createdAt: DateTime,
    createdByClient: z.optional(z.string()),
  }))();

export const EndRecord = /* @__PURE__ */ (() => strictObject({ kind: z.literal('end'), counts: z.record(z.enum(MOVE_KINDS), checkedInt(z.minimum(0))) }))();

export const MoveRecord = /* @__PURE__ */ (() =>
  z.discriminatedUnion('kind', [
    TeamRecord,
    MemberRecord,
    CustomFieldRecord,
    TagValueRecord,
    EntityRecord,
    RelationRecord,
    NoteRecord,
    CommentRecord,
    WebhookRecord,
  ]))();

export type ExportHeader = z.output<typeof ExportHeader>;
export type TeamRecord = z.output<typeof TeamRecord>;
export type MemberRecord = z.output<typeof MemberRecord>;
export type TagValueRecord = z.output<typeof TagValueRecord>;
export type CommentRecord = z.output<typeof CommentRecord>;
export type CustomFieldRecord = z.output<typeof CustomFieldRecord>;
export type EntityRecord = z.output<typeof EntityRecord>;
export type RelationRecord = z.output<typeof RelationRecord>;
export type NoteRecord = z.output<typeof NoteRecord>;
type NoteLink = z.output<typeof NoteLink>;
export type WebhookRecord = z.output<typeof WebhookRecord>;
export type MoveRecord = z.output<typeof MoveRecord>;
export type RecordOf<K extends MoveKind> = Extract<MoveRecord, { kind: K }>;
export type EndRecord = z.output<typeof EndRecord>;
