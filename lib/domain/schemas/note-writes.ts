// The bodies that write notes and their relationships (customer importance).
import * as z from 'zod/mini';
import { Uuid } from './common.ts';
import { createFields, updateFields } from './entity-writes.ts';
import { Importance, type NoteType } from './note.ts';
import { NOTE_FIELDS } from '../entity-fields.ts';
import { CUSTOMER_TYPES, ENTITY_TYPES, type EntityType as EntityTypeName } from '../hierarchy.ts';
import { DEFAULT_IMPORTANCE } from '../score.ts';

/** `textNote`, or its alias `simple`; parsed to `textNote`. */
export const NoteTypeInput = z.pipe(
  z.enum(['textNote', 'simple']),
  z.transform((): z.output<typeof NoteType> => 'textNote'),
);

/** A link target's `type`: the entity's type, which must then be its type, or Productboard's `link`, which states none. */
const LinkTargetType = z.pipe(
  z.enum(['link', ...ENTITY_TYPES]),
  z.transform((type): EntityTypeName | undefined => (type === 'link' ? undefined : type)),
);
/** A link target: a product hierarchy entity. */
export const LinkTarget = z.strictObject({ id: Uuid, type: z.optional(LinkTargetType) });
/** A customer: a user or a company (`type`, when given, must be its type). */
export const CustomerTarget = z.strictObject({ id: Uuid, type: z.optional(z.enum(CUSTOMER_TYPES)) }).check(z.meta({ id: 'CustomerTarget' }));

export const LinkInput = z
  .strictObject({ type: z.literal('link'), target: LinkTarget, importance: z._default(Importance, DEFAULT_IMPORTANCE) })
  .check(z.meta({ id: 'NoteLinkInput' }));
export const CustomerInput = z.strictObject({ type: z.literal('customer'), target: CustomerTarget }).check(z.meta({ id: 'NoteCustomerInput' }));
export const NoteRelationshipInput = z.discriminatedUnion('type', [LinkInput, CustomerInput]).check(z.meta({ id: 'NoteRelationshipInput' }));
export type NoteRelationshipInput = z.output<typeof NoteRelationshipInput>;

/** A note's relationships on create: at most one customer, each entity linked once. */
const NoteRelationshipsInput = z.array(NoteRelationshipInput).check(
  z.superRefine((rels, ctx) => {
    const linked = new Set<string>();
    let customer = false;
    rels.forEach((rel, i) => {
      if (rel.type === 'customer') {
        if (customer) ctx.addIssue({ code: 'custom', message: 'is a second customer: a note has at most one', path: [i], input: rel });
        customer = true;
      } else {
        if (linked.has(rel.target.id)) ctx.addIssue({ code: 'custom', message: `links entity ${rel.target.id} a second time`, path: [i, 'target', 'id'], input: rel.target.id });
        linked.add(rel.target.id);
      }
    });
  }),
);

export const CreateNoteBody = z
  .strictObject({
    data: z.strictObject({
      type: NoteTypeInput,
      fields: createFields(NOTE_FIELDS),
      relationships: z.optional(NoteRelationshipsInput),
    }),
  })
  .check(z.meta({ id: 'CreateNoteBody' }));

export const UpdateNoteBody = z
  .strictObject({
    data: z.strictObject({
      fields: updateFields(NOTE_FIELDS),
      type: z.optional(NoteTypeInput).check(z.describe("When given, the note's own type")),
      id: z.optional(Uuid).check(z.describe('When given, the id in the path')),
    }),
  })
  .check(z.meta({ id: 'UpdateNoteBody' }));

export const CreateNoteRelationshipBody = z.strictObject({ data: NoteRelationshipInput }).check(z.meta({ id: 'CreateNoteRelationshipBody' }));

export const SetNoteLinkBody = z.strictObject({ data: z.strictObject({ importance: z._default(Importance, DEFAULT_IMPORTANCE) }) }).check(z.meta({ id: 'SetNoteLinkBody' }));

export const SetNoteCustomerBody = z.strictObject({ data: z.strictObject({ target: CustomerTarget }) }).check(z.meta({ id: 'SetNoteCustomerBody' }));

export const NoteLinkPath = z.strictObject({ id: Uuid, entityId: Uuid });

export const NoteRelationshipPath = z.strictObject({ id: Uuid, relationshipType: z.enum(['link', 'customer']), targetId: Uuid });
