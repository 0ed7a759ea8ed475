// Tools over notes (customer feedback) and their links: list and read them, whatever their type,
// as the REST API answers them (lib/http/records.ts); create a text note (through POST /v2/notes's
// own body and code; a conversation's parts are written through REST) and create or re-rate a link
// (PUT /v2/notes/{id}/relationships/link/{entityId}'s store call).
import * as z from 'zod/mini';
import { NOTE_TYPES } from '../../../domain/configurations.ts';
import { InvalidInput, NotFound, pointer } from '../../../domain/errors.ts';
import { checkKnownFields, fieldsFromBody } from '../../../domain/fields.ts';
import { parseInput } from '../../../domain/input.ts';
import { Email, Uuid } from '../../../domain/schemas/common.ts';
import { CreateNoteBody } from '../../../domain/schemas/note-writes.ts';
import { IMPORTANCES, WEIGHTS } from '../../../domain/score.ts';
import * as routes from '../../../routes.ts';
import { fieldCatalog } from '../../../store/custom-fields.ts';
import { CUSTOMER_EMAIL_NEEDS_PII, usersByEmail } from '../../../store/customers.ts';
import { createNoteFrom } from '../../../store/note-creation.ts';
import { getNote, upsertLink } from '../../../store/notes.ts';
import { NOTE_LIST_ORDER, notesAfter } from '../../../store/pages.ts';
import { apiErrorOf } from '../../error-map.ts';
import { ApiError } from '../../errors.ts';
import { noteQueryOf } from '../../list-filters.ts';
import { pageOfFetched } from '../../pagination.ts';
import { noteRecords, noteResource } from '../../records.ts';
import { cursorPosition, nextCursor } from '../cursor.ts';
import { Cursor, Fields, pageLimit } from '../inputs.ts';
import { tool } from '../tool.ts';

const MAX_NOTES_PAGE = 100;
const DEFAULT_NOTES_PAGE = 20;
const Importance = z
  .enum(IMPORTANCES)
  .check(z.describe(`How much the customer cares: ${IMPORTANCES.map((i) => `${i} (${WEIGHTS[i]})`).join(', ')} — the weight it adds to the score`));

export const listNotes = tool({
  name: 'list_notes',
  title: 'List notes',
  description:
    "Notes (customer feedback), newest first, each with its customer and the entities it is linked to with their importance; filtered as GET /v2/notes filters them (archived, processed, owner, creator, creation time). Paginated: pass the result's nextCursor as cursor for the next page.",
  mirrors: routes.listNotes,
  readOnly: true,
  input: {
    archived: z.optional(z.boolean().check(z.describe('Only archived (true) or only unarchived (false) notes'))),
    processed: z.optional(z.boolean().check(z.describe('Only processed (true) or only unprocessed (false) notes'))),
    ownerEmail: z.optional(Email.check(z.describe('Only notes owned by the member with this e-mail'))),
    creatorEmail: z.optional(Email.check(z.describe('Only notes created by the member with this e-mail'))),
    createdFrom: z.optional(z.iso.datetime({ offset: true }).check(z.describe('Only notes created at or after this instant (ISO 8601 with a zone)'))),
    createdTo: z.optional(z.iso.datetime({ offset: true }).check(z.describe('Only notes created at or before this instant (ISO 8601 with a zone)'))),
    fields: Fields,
    limit: pageLimit('Notes', MAX_NOTES_PAGE, DEFAULT_NOTES_PAGE),
    cursor: Cursor,
  },
  async run(principal, args) {
    const ws = principal.workspaceId;
    const selection = fieldsFromBody(args.fields, ['fields']);
    const catalog = await fieldCatalog(ws, NOTE_TYPES);
    checkKnownFields(selection, catalog.configured);
    const after = (await cursorPosition('list_notes', principal, args, NOTE_LIST_ORDER)) as string | undefined;
    const limit = args.limit ?? DEFAULT_NOTES_PAGE;
    // The REST list's filters and store query (lib/http/list-filters.ts, lib/store/pages.ts).
    const query = await noteQueryOf(ws, {
      archived: args.archived,
      processed: args.processed,
      'owner[email]': args.ownerEmail,
      'creator[email]': args.creatorEmail,
      createdFrom: args.createdFrom,
      createdTo: args.createdTo,
    });
    const slice = await notesAfter(ws, query, after, limit + 1);
    const { views: notes, next: position } = await pageOfFetched(slice, limit, (records) => noteRecords(ws, records, selection, catalog));
    const more = position !== undefined;
    const data = { notes, ...(more ? { nextCursor: await nextCursor('list_notes', principal, args, position, NOTE_LIST_ORDER) } : {}) };
    return { text: `${notes.length} ${notes.length === 1 ? 'note' : 'notes'}${more ? '; more with nextCursor' : ''}.`, data };
  },
});

export const getNoteTool = tool({
  name: 'get_note',
  title: 'Get a note',
  description: 'One note by id, with its fields, its customer and its links with their importance, as the REST API answers GET /v2/notes/{id}.',
  mirrors: routes.getNote,
  readOnly: true,
  input: { noteId: Uuid.check(z.describe('Id of the note')), fields: Fields },
  async run(principal, { noteId, fields }) {
    const ws = principal.workspaceId;
    const note = await getNote(ws, noteId);
    if (!note) throw new NotFound('note', noteId);
    const record = await noteResource(ws, note, fieldsFromBody(fields, ['fields']));
    return { text: `Note "${typeof note.fields.name === 'string' ? note.fields.name : ''}" (${note.id}).`, data: { note: record } };
  },
});

/**
 * The customer of create_note: by id, or the one user with that e-mail address — which only a
 * token with users:pii:read may ask (`pii`), refused before the look-up as POST /v2/notes refuses it.
 */
async function customerId(ws: string, customer: { id?: string | undefined; email?: string | undefined }, pii: boolean): Promise<string> {
  if (customer.id !== undefined) return customer.id;
  if (!pii) throw new InvalidInput(CUSTOMER_EMAIL_NEEDS_PII, { pointer: '/customer/email' });
  const ids = (await usersByEmail(ws, customer.email!)).map((u) => u.id);
  if (ids.length === 0) throw new NotFound('user with e-mail', customer.email!);
  if (ids.length > 1)
    throw new InvalidInput(`${ids.length} users have the e-mail address ${customer.email}; name the customer by id (${ids.join(', ')}).`, {
      pointer: '/customer/email',
    });
  return ids[0]!;
}

/** How create_note's arguments named the customer, if at all. */
type CustomerArgument = 'id' | 'email' | undefined;

/**
 * Where a value of the POST /v2/notes body that create_note builds came from in its arguments: the
 * client never sent that body, so a refusal must point at what it did send. The customer, when
 * there is one, is the body's first relationship; the links follow it in order.
 */
function argumentPath(bodyPointer: string, customer: CustomerArgument): Array<string | number> {
  const [, data, part, index, ...rest] = bodyPointer.split('/');
  if (data !== 'data' || part === undefined) return [];
  if (part === 'fields') return index === undefined ? [] : [index, ...rest];
  if (part !== 'relationships') return [];
  if (index === undefined) return ['links'];
  const i = Number(index) - (customer ? 1 : 0);
  if (i < 0) return rest[0] === 'target' && rest[1] === 'id' ? ['customer', customer!] : ['customer'];
  if (rest[0] === 'target') return rest[1] === 'id' ? ['links', i, 'entityId'] : ['links', i];
  return ['links', i, ...rest];
}

/** A refusal of the body create_note builds, pointing at the tool's arguments instead (in `source` and where the detail quotes it). */
function inArguments(err: unknown, customer: CustomerArgument): unknown {
  const known = apiErrorOf(err);
  const at = known?.source?.pointer;
  if (!known || at === undefined || !at.startsWith('/data')) return err;
  const translate = (p: string) => pointer(argumentPath(p, customer)).pointer;
  const detail = known.detail.replace(/'(\/data(?:\/[^'/]+)*)'/g, (_, p: string) => `'${translate(p)}'`);
  return new ApiError(known.code, detail, { source: { pointer: translate(at) }, ...(known.headers ? { headers: known.headers } : {}), cause: err });
}

export const createNoteTool = tool({
  name: 'create_note',
  title: 'Create a note',
  description:
    "Files customer feedback as a text note: a title, its text, optionally the customer (a user or company, by id or by a user's e-mail) and the features or other entities it is about, each with the customer's importance. A link with a customer moves the entity's customer score (and its ancestors') by the importance's weight.",
  mirrors: routes.createNote,
  readOnly: false,
  input: {
    name: z.string().check(z.minLength(1), z.describe('Title of the note')),
    content: z.optional(z.string().check(z.describe('The feedback itself (HTML or plain text)'))),
    customer: z.optional(
      z
        .strictObject({
          id: z.optional(Uuid.check(z.describe('Id of a user or company'))),
          email: z.optional(Email.check(z.describe("E-mail of a user (the user's `email` field); needs users:pii:read"))),
        })
        .check(
          z.refine((c) => (c.id === undefined) !== (c.email === undefined), { error: 'must name the customer by id or by e-mail, one of them' }),
          z.describe('Whose feedback it is'),
        ),
    ),
    links: z.optional(
      z
        .array(z.strictObject({ entityId: Uuid.check(z.describe('Id of a product, component, feature or subfeature')), importance: z.optional(Importance) }))
        .check(z.describe("Entities the note is about; importance 'unknown' when omitted")),
    ),
  },
  async run(principal, args, scope) {
    const ws = principal.workspaceId;
    const customer = args.customer ? await customerId(ws, args.customer, principal.scopes.has('users:pii:read')) : undefined;
    // The body POST /v2/notes takes, through its own schema: the same rules, the same refusals.
    const body = {
      data: {
        type: 'textNote',
        fields: { name: args.name, ...(args.content !== undefined ? { content: args.content } : {}) },
        relationships: [
          ...(customer ? [{ type: 'customer', target: { id: customer } }] : []),
          ...(args.links ?? []).map((l) => ({ type: 'link', target: { id: l.entityId }, ...(l.importance ? { importance: l.importance } : {}) })),
        ],
      },
    };
    let created;
    try {
      const { data } = parseInput(CreateNoteBody, body, 'body');
      created = { data, note: await createNoteFrom(principal, data, undefined, scope) };
    } catch (err) {
      throw inArguments(err, args.customer ? (args.customer.id !== undefined ? 'id' : 'email') : undefined);
    }
    const { data, note } = created;
    const record = await noteResource(ws, note, { mode: 'default' });
    const links = data.relationships?.filter((r) => r.type === 'link').length ?? 0;
    return {
      text: `Note "${args.name}" created (${note.id}) with ${links} ${links === 1 ? 'link' : 'links'}${customer ? ` for customer ${customer}` : ''}.`,
      data: { note: record },
    };
  },
});

export const rateLink = tool({
  name: 'rate_link',
  title: 'Link a note to an entity, or re-rate the link',
  description:
    "Links a note to a product, component, feature or subfeature with the customer's importance, or changes the importance of an existing link. The latest rating of a customer on an entity is the one that counts in its score.",
  mirrors: routes.setNoteLink,
  readOnly: false,
  input: {
    noteId: Uuid.check(z.describe('Id of the note')),
    entityId: Uuid.check(z.describe('Id of the product, component, feature or subfeature')),
    importance: Importance,
  },
  async run(principal, { noteId, entityId, importance }, scope) {
    const { created, link } = await upsertLink(principal.workspaceId, noteId, entityId, importance, { create: false, path: ['entityId'], scope });
    const data = { noteId, entityId: link.entityId, entityType: link.entityType, importance: link.importance, created };
    return { text: `${created ? 'Linked' : 'Re-rated'} note ${noteId} to ${link.entityType} ${link.entityId} as ${link.importance}.`, data };
  },
});
