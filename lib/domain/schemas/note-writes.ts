// The bodies that write notes and their relationships (customer importance).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, strictObject } from './build.ts';
import { Email, Uuid } from './common.ts';
import { createFields, updateFields, withPatch } from './entity-writes.ts';
import { NOTE_STANDARD_FIELDS } from './field-values.ts';
import { Metadata } from './metadata.ts';
import { Importance, NoteTypeInput } from './note.ts';
import { NOTE_FIELDS, NOTE_UPDATE_FIELDS } from '../entity-fields.ts';
import { CUSTOMER_TYPES, ENTITY_TYPES, type EntityType as EntityTypeName } from '../hierarchy.ts';
import { DEFAULT_IMPORTANCE } from '../score.ts';

/** A link target's `type`: the entity's type, which must then be its type, or Productboard's `link`, which states none. */
const LinkTargetType = /* @__PURE__ */ (() =>
  z.pipe(
    z.enum(['link', ...ENTITY_TYPES]),
    z.transform((type): EntityTypeName | undefined => (type === 'link' ? undefined : type)),
  ))();
/** A link target: a product hierarchy entity. */
const LinkTarget = /* @__PURE__ */ (() => strictObject({ id: Uuid, type: z.optional(LinkTargetType) }))();
/**
 * A customer: a user or a company by `id` (`type`, when given, must be its type), or a user by
 * `email` (matched case-insensitively against the users' e-mail field).
 */
const CustomerTarget = /* @__PURE__ */ (() =>
  doc(
    strictObject(
      {
        id: z.optional(Uuid),
        email: z.optional(doc(Email, "A user's e-mail, compared case-insensitively; needs users:pii:read")),
        type: z.optional(z.enum(CUSTOMER_TYPES)),
      },
      z.superRefine((t, ctx) => {
        if ((t.id === undefined) === (t.email === undefined))
          ctx.addIssue({ code: 'custom', message: "names no customer: give its id, or a user's email (not both)", input: t });
        else if (t.email !== undefined && t.type === 'company')
          ctx.addIssue({ code: 'custom', message: "is company, but only a user is found by e-mail: give the company's id", path: ['type'], input: t.type });
      }),
    ),
    { id: 'CustomerTarget' },
  ))();
type CustomerTarget = z.output<typeof CustomerTarget>;

const LinkInput = /* @__PURE__ */ (() =>
  doc(strictObject({ type: z.literal('link'), target: LinkTarget, importance: z._default(Importance, DEFAULT_IMPORTANCE) }), { id: 'NoteLinkInput' }))();
const CustomerInput = /* @__PURE__ */ (() => doc(strictObject({ type: z.literal('customer'), target: CustomerTarget }), { id: 'NoteCustomerInput' }))();
const NoteRelationshipInput = /* @__PURE__ */ (() => doc(z.discriminatedUnion('type', [LinkInput, CustomerInput]), { id: 'NoteRelationshipInput' }))();
type NoteRelationshipInput = z.output<typeof NoteRelationshipInput>;

/** A note's relationships on create: at most one customer, each entity linked once. */
const NoteRelationshipsInput = /* @__PURE__ */ (() =>
  checkedArray(
    NoteRelationshipInput,
    z.superRefine((rels, ctx) => {
      const linked = new Set<string>();
      let customer = false;
      rels.forEach((rel, i) => {
        if (rel.type === 'customer') {
          if (customer) ctx.addIssue({ code: 'custom', message: 'is a second customer: a note has at most one', path: [i], input: rel });
          customer = true;
        } else {
          if (linked.has(rel.target.id))
            ctx.addIssue({ code: 'custom', message: `links entity ${rel.target.id} a second time`, path: [i, 'target', 'id'], input: rel.target.id });
          linked.add(rel.target.id);
        }
      });
    }),
  ))();

export const CreateNoteBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: strictObject({
        type: NoteTypeInput,
        fields: createFields(NOTE_STANDARD_FIELDS, NOTE_FIELDS),
        relationships: z.optional(NoteRelationshipsInput),
        metadata: z.optional(Metadata),
      }),
    }),
    { id: 'CreateNoteBody' },
  ))();

export const UpdateNoteBody = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      data: withPatch(NOTE_STANDARD_FIELDS, {
        fields: z.optional(updateFields(NOTE_STANDARD_FIELDS, NOTE_UPDATE_FIELDS)),
        type: doc(z.optional(NoteTypeInput), "When given, the note's own type"),
        id: doc(z.optional(Uuid), 'When given, the id in the path'),
      }),
    }),
    { id: 'UpdateNoteBody' },
  ))();

export const CreateNoteRelationshipBody = /* @__PURE__ */ (() => doc(strictObject({ data: NoteRelationshipInput }), { id: 'CreateNoteRelationshipBody' }))();

export const SetNoteLinkBody = /* @__PURE__ */ (() =>
  doc(strictObject({ data: strictObject({ importance: z._default(Importance, DEFAULT_IMPORTANCE) }) }), { id: 'SetNoteLinkBody' }))();

export const SetNoteCustomerBody = /* @__PURE__ */ (() =>
  doc(strictObject({ data: strictObject({ target: CustomerTarget }) }), { id: 'SetNoteCustomerBody' }))();

export const NoteLinkPath = /* @__PURE__ */ (() => strictObject({ id: Uuid, entityId: Uuid }))();

/** `targetType` and `targetId` as Productboard names them; a customer's `targetId` is not compared (any uuid removes the customer). */
export const NoteRelationshipPath = /* @__PURE__ */ (() => strictObject({ id: Uuid, targetType: z.enum(['link', 'customer']), targetId: Uuid }))();
