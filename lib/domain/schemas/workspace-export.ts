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
import { CUSTOMER_TYPES, ENTITY_TYPES, HIERARCHY_TYPES } from '../hierarchy.ts';
import { RELATION_TYPES } from '../relations.ts';
import { ROLES } from '../scopes.ts';
import { IMPORTANCES } from '../score.ts';

export const EXPORT_FORMAT = 'pm-score-api.workspace-export';
/** Bumped whenever a reader of the previous version would misread a file of the new one. */
export const EXPORT_VERSION = 1;

/** The kinds of record, in the order a file holds them (what a record refers to comes first). */
export const MOVE_KINDS = ['member', 'customField', 'entity', 'relation', 'note', 'webhook'] as const;
export type MoveKind = (typeof MOVE_KINDS)[number];

const Fields = /* @__PURE__ */ (() => z.record(z.string(), z.unknown()))();
const Source = /* @__PURE__ */ (() => strictObject({ system: z.optional(z.string()), recordId: z.optional(z.string()), url: z.optional(z.string()) }))();
const Metadata = /* @__PURE__ */ (() => strictObject({ source: z.optional(Source) }))();

export const ExportHeader = /* @__PURE__ */ (() => strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  /** Names this export for good: a restore of it is resumed by it (with the target's name). */
  exportId: Uuid,
  exportedAt: DateTime,
  workspace: strictObject({ id: Uuid, name: z.string(), createdAt: DateTime }),
}))();

export const MemberRecord = /* @__PURE__ */ (() => strictObject({
  kind: z.literal('member'),
  id: z.string(),
  email: Email,
  name: z.string(),
  role: z.enum(ROLES),
  active: z.boolean(),
  createdAt: DateTime,
}))();

export const CustomFieldRecord = /* @__PURE__ */ (() => strictObject({
  kind: z.literal('customField'),
  id: z.string(),
  entityType: z.string(),
  name: z.string(),
  fieldKind: z.enum(CUSTOM_FIELD_KINDS),
  options: z.optional(z.array(z.string())),
  createdAt: DateTime,
}))();

export const EntityRecord = /* @__PURE__ */ (() => strictObject({
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

/** One relation between two hierarchy entities, once (the other side is its mirror). */
export const RelationRecord = /* @__PURE__ */ (() => strictObject({
  kind: z.literal('relation'),
  entityId: z.string(),
  entityType: z.enum(HIERARCHY_TYPES),
  type: z.enum(RELATION_TYPES),
  targetId: z.string(),
  targetType: z.enum(HIERARCHY_TYPES),
  createdAt: DateTime,
}))();

/** A note's link: the importance and when it was rated (the score's "latest rating" depends on it), to the millisecond. */
const NoteLink = /* @__PURE__ */ (() => strictObject({ entityId: z.string(), entityType: z.enum(HIERARCHY_TYPES), importance: z.enum(IMPORTANCES), ratedAt: DateTime }))();

export const NoteRecord = /* @__PURE__ */ (() => strictObject({
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

/** A subscription without its secrets: restored paused (re-create it to get a new signing secret). */
export const WebhookRecord = /* @__PURE__ */ (() => strictObject({
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

export const MoveRecord = /* @__PURE__ */ (() => z.discriminatedUnion('kind', [MemberRecord, CustomFieldRecord, EntityRecord, RelationRecord, NoteRecord, WebhookRecord]))();

export type ExportHeader = z.output<typeof ExportHeader>;
export type MemberRecord = z.output<typeof MemberRecord>;
export type CustomFieldRecord = z.output<typeof CustomFieldRecord>;
export type EntityRecord = z.output<typeof EntityRecord>;
export type RelationRecord = z.output<typeof RelationRecord>;
export type NoteRecord = z.output<typeof NoteRecord>;
type NoteLink = z.output<typeof NoteLink>;
export type WebhookRecord = z.output<typeof WebhookRecord>;
export type MoveRecord = z.output<typeof MoveRecord>;
export type RecordOf<K extends MoveKind> = Extract<MoveRecord, { kind: K }>;
export type EndRecord = z.output<typeof EndRecord>;
