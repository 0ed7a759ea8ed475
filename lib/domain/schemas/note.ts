// Notes as reads answer them (retrieve, list, relationships) and the query parameters of those reads.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedString, strictObject } from './build.ts';
import { DateTime, Email, listOf, ListLinks, oneOrList, pageParameters, pascal, RecordLinks, referenceTo, repeated, Uuid, dataOf } from './common.ts';
import { EntityReference, EntityType, recordFields } from './entity.ts';
import { NOTE_CONTENT, NOTE_STANDARD_FIELDS } from './field-values.ts';
import { DateRange, DateTimeParameter, memberParameters, sourceParameters } from './filters.ts';
import { Metadata } from './metadata.ts';
import { NOTE_FIELDS } from '../entity-fields.ts';
import { IMPORTANCES } from '../score.ts';

export const NOTE_TYPES = ['textNote', 'conversationNote'] as const;
export type NoteType = (typeof NOTE_TYPES)[number];
export const isNoteType = (t: unknown): t is NoteType => typeof t === 'string' && (NOTE_TYPES as readonly string[]).includes(t);

/** Productboard's legacy names of the note types this service has. */
const NOTE_TYPE_ALIASES = { simple: 'textNote', conversation: 'conversationNote' } as const satisfies Record<string, NoteType>;
const isAlias = (t: string): t is keyof typeof NOTE_TYPE_ALIASES => Object.hasOwn(NOTE_TYPE_ALIASES, t);
/** A note type's own name for a name or an alias (anything else as given). */
export const canonicalNoteType = (t: string): string => (isAlias(t) ? NOTE_TYPE_ALIASES[t] : t);

export const NoteType = /* @__PURE__ */ (() => doc(z.enum(NOTE_TYPES), { id: 'NoteType' }))();

/** Productboard's opportunity notes cannot be created through its API, so this service has none. */
export const NO_OPPORTUNITY_NOTES =
  "opportunity notes cannot be created through the API, so this service has none; its note types are 'textNote' and 'conversationNote'";
export const isOpportunity = (t: unknown) => t === 'opportunityNote' || t === 'opportunity';
const noteTypeError = (what: string) => (issue: { input?: unknown }) =>
  isOpportunity(issue.input) ? `names an opportunity note: ${NO_OPPORTUNITY_NOTES}` : what;

/** A note type by its name or its alias (`simple`, `conversation`); parsed to its name. */
export const NoteTypeInput = /* @__PURE__ */ (() =>
  z.pipe(
    doc(
      z.enum([...NOTE_TYPES, ...(Object.keys(NOTE_TYPE_ALIASES) as Array<keyof typeof NOTE_TYPE_ALIASES>)], {
        error: noteTypeError("must be 'textNote' or 'conversationNote' (or their aliases 'simple' and 'conversation')"),
      }),
      { id: 'NoteTypeInput', description: "A note type, or Productboard's alias of it (simple: textNote, conversation: conversationNote)" },
    ),
    z.transform((t): NoteType => canonicalNoteType(t) as NoteType),
  ))();

export const Importance = /* @__PURE__ */ (() =>
  doc(z.enum(IMPORTANCES), { id: 'Importance', description: "A customer's importance rating; 'unknown' when not given" }))();

const NoteReference = /* @__PURE__ */ (() => doc(referenceTo(NoteType), { id: 'NoteReference' }))();
export const NoteReferenceResponse = /* @__PURE__ */ (() => doc(dataOf(NoteReference), { id: 'NoteReferenceResponse' }))();

const NOTE_RELATIONSHIP_TYPES = ['customer', 'link'] as const;
const NoteRelationship = /* @__PURE__ */ (() =>
  doc(
    z.discriminatedUnion('type', [
      doc(strictObject({ type: z.literal('customer'), target: EntityReference }), { id: 'NoteCustomerRelationship' }),
      doc(strictObject({ type: z.literal('link'), target: EntityReference, importance: Importance }), { id: 'NoteLinkRelationship' }),
    ]),
    { id: 'NoteRelationship' },
  ))();
export const NoteRelationshipResponse = /* @__PURE__ */ (() => doc(dataOf(NoteRelationship), { id: 'NoteRelationshipResponse' }))();
export const NoteRelationshipList = /* @__PURE__ */ (() => doc(listOf(NoteRelationship), { id: 'NoteRelationshipList' }))();

/** A note of one type; its `relationships` (customer, then links) hold at most 20 items, links.next lists the rest. */
const noteOf = (type: NoteType) =>
  doc(
    strictObject({
      id: Uuid,
      type: z.literal(type),
      fields: doc(recordFields(NOTE_FIELDS, { content: NOTE_CONTENT[type], tags: NOTE_STANDARD_FIELDS.tags.read }), { id: `${pascal(type)}Fields` }),
      relationships: strictObject({ data: z.array(NoteRelationship), links: ListLinks }),
      links: RecordLinks,
      metadata: z.optional(Metadata),
      createdAt: DateTime,
      updatedAt: DateTime,
    }),
    { id: pascal(type) },
  );

/** A note: its type says the shape of its content. */
const Note = /* @__PURE__ */ (() =>
  doc(z.discriminatedUnion('type', NOTE_TYPES.map(noteOf) as [ReturnType<typeof noteOf>, ...ReturnType<typeof noteOf>[]]), { id: 'Note' }))();
export const NoteResponse = /* @__PURE__ */ (() => doc(dataOf(Note), { id: 'NoteResponse' }))();
export const NoteList = /* @__PURE__ */ (() => doc(listOf(Note), { id: 'NoteList' }))();

const FieldId = /* @__PURE__ */ (() => checkedString(z.minLength(1), z.maxLength(200)))();
/** Notes take the selection as `fields[]` and as `fields`, each repeatable. */
const noteFieldsParameters = /* @__PURE__ */ (() => ({ 'fields[]': repeated(FieldId), fields: repeated(FieldId) }))();

const owner = /* @__PURE__ */ (() => memberParameters('owner'))();
const creator = /* @__PURE__ */ (() => memberParameters('creator'))();

/** Productboard's list filters and ours (`limit`); every filter given must hold; `type` and `type[]` take aliases too. */
export const ListNotesQuery = /* @__PURE__ */ (() =>
  strictObject({
    type: z.optional(NoteTypeInput),
    'type[]': repeated(NoteTypeInput),
    ...noteFieldsParameters,
    archived: z.optional(z.boolean()),
    processed: z.optional(z.boolean()),
    'owner[id]': owner.id,
    'owner[email]': owner.email,
    'creator[id]': creator.id,
    'creator[email]': creator.email,
    ...sourceParameters,
    createdFrom: z.optional(DateTimeParameter),
    createdTo: z.optional(DateTimeParameter),
    updatedFrom: z.optional(DateTimeParameter),
    updatedTo: z.optional(DateTimeParameter),
    ...pageParameters,
  }))();
export const GetNoteQuery = /* @__PURE__ */ (() => strictObject(noteFieldsParameters))();
export const NoteRelationshipsQuery = /* @__PURE__ */ (() =>
  strictObject({ type: z.optional(z.enum(NOTE_RELATIONSHIP_TYPES)), 'target[type]': z.optional(EntityType), ...pageParameters }))();

/** POST /v2/notes/search's query: the page, and the deprecated `fields[]` (or the body's return.fields, not both). */
export const SearchNotesQuery = /* @__PURE__ */ (() => strictObject({ 'fields[]': repeated(FieldId), ...pageParameters }))();

const NOTE_TYPE_FILTER = "must be 'textNote' or 'conversationNote' (or an alias: 'simple', 'conversation'), or a list of them";
const MemberFilterValue = /* @__PURE__ */ (() =>
  strictObject(
    { id: z.optional(Uuid), email: z.optional(Email) },
    z.refine((m) => m.id !== undefined || m.email !== undefined, { error: 'names no member: give its id or its email' }),
  ))();
const SourceFilterValue = /* @__PURE__ */ (() => strictObject({ system: z.optional(z.string()), recordId: z.optional(z.string()) }))();
const IdFilterValue = /* @__PURE__ */ (() => strictObject({ id: Uuid }))();

/** Productboard's `data.filter` of the notes search: every filter given must hold, the values of one filter are alternatives. */
export const NoteSearchFilter = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      type: z.optional(oneOrList(NoteTypeInput, 100, noteTypeError(NOTE_TYPE_FILTER))),
      id: z.optional(oneOrList(Uuid)),
      createdAt: z.optional(DateRange),
      updatedAt: z.optional(DateRange),
      fields: z.optional(
        strictObject({
          owner: z.optional(oneOrList(MemberFilterValue)),
          creator: z.optional(oneOrList(MemberFilterValue)),
          tag: z.optional(oneOrList(strictObject({ name: checkedString(z.minLength(1)) }))),
          archived: z.optional(z.boolean()),
          processed: z.optional(z.boolean()),
        }),
      ),
      metadata: z.optional(strictObject({ source: z.optional(oneOrList(SourceFilterValue)) })),
      relationships: z.optional(strictObject({ customer: z.optional(oneOrList(IdFilterValue)), link: z.optional(oneOrList(IdFilterValue)) })),
    }),
    { id: 'NoteSearchFilter' },
  ))();
export type NoteSearchFilter = z.output<typeof NoteSearchFilter>;

/** Productboard's search body `{data?: {search?, filter?, return?}}`; `search.query` keeps notes whose name or content contains it. */
export const SearchNotesBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: z.optional(
        strictObject({
          search: z.optional(
            strictObject({
              query: z.optional(doc(checkedString(z.maxLength(255)), 'Keeps notes whose name or content contains this, compared case-insensitively')),
            }),
          ),
          filter: z.optional(NoteSearchFilter),
          return: z.optional(strictObject({ fields: z.optional(checkedArray(FieldId, z.minLength(1))) })),
        }),
      ),
    }),
    { id: 'SearchNotesBody' },
  ))();

/** Path parameters of a note's routes. */
export const NotePath = /* @__PURE__ */ (() => strictObject({ id: Uuid }))();
