// The table of kinds a workspace is moved in (export, restore, imports): for each kind of record
// (lib/domain/schemas/workspace-export.ts) the table items it is restored as. Ids are mapped on the
// way in (./ids.ts): a record names its own ids and those it refers to as its source knew them. A new
// kind of record is one entry here, one in the export's reader (./export.ts) and one in each
// source's reader (local/move/productboard-kinds.ts).
import { nameKey } from '../../domain/field-values.ts';
import { isHierarchyType } from '../../domain/hierarchy.ts';
import { isUuid } from '../../domain/schemas/common.ts';
import type { MoveKind, RecordOf } from '../../domain/schemas/workspace-export.ts';
import { linkItem } from '../aggregates.ts';
import { customFieldNameGuard } from '../custom-fields.ts';
import { customerEmailWrites } from '../customers.ts';
import { newTagValueItems } from '../field-values.ts';
import * as keys from '../keys.ts';
import { noteItem } from '../notes.ts';
import { QUIET_WRITE } from '../stream-records.ts';

type Item = Record<string, unknown>;

/** What restoring a record needs besides the record. */
export interface LoadContext {
  /** The workspace written into. */
  ws: string;
  /** The id a record of the source gets here (./ids.ts). */
  id: (sourceId: string) => string;
  /** The mark of this run's writes (QUIET_WRITE): the event worker makes no events of them. */
  quiet: string;
  /** A sealed signing secret for a restored webhook subscription (never shown: re-create it to get one). */
  sealedSecret: (webhookId: string) => string;
}

/** Member-valued fields (`{id, email}`) whose id is mapped; every uuid key is a custom field, mapped too. */
const MEMBER_FIELDS = new Set(['owner', 'creator']);
/** List fields whose items name records by id (an entity's tags and teams, `[{id, name}]`); a note's tags are names only. */
const REFERENCE_LISTS = new Set(['tags', 'teams']);

/** A record's API-shaped field values with the ids they name mapped. */
function mapFields(fields: Record<string, unknown>, id: (sourceId: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (MEMBER_FIELDS.has(key) && value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
      const m = value as { id: string; email?: string };
      out[key] = { ...m, id: id(m.id) };
    } else if (REFERENCE_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((v: { id?: unknown }) => (v && typeof v.id === 'string' ? { ...v, id: id(v.id) } : v));
    } else out[isUuid(key) ? id(key.toLowerCase()) : key] = value;
  }
  return out;
}

const toMs = (iso: string) => Date.parse(iso);

const KINDS: { [K in MoveKind]: (record: RecordOf<K>, ctx: LoadContext) => Item[] } = {
  team: (r, { ws, id, quiet }) => {
    const teamId = id(r.id);
    const team = {
      id: teamId,
      name: r.name,
      handle: r.handle,
      ...(r.description !== undefined ? { description: r.description } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
    return [
      { ...keys.team(ws, teamId), kind: 'team', ...team, gsi1pk: keys.teamsOf(ws), gsi1sk: keys.listPosition(r.createdAt, teamId), [QUIET_WRITE]: quiet },
      { ...keys.teamName(ws, nameKey(r.name)), kind: 'teamName', teamId, [QUIET_WRITE]: quiet },
      { ...keys.teamHandle(ws, r.handle), kind: 'teamHandle', teamId, [QUIET_WRITE]: quiet },
    ];
  },
  member: (r, { ws, id, quiet }) => {
    const memberId = id(r.id);
    const teams = (r.teams ?? []).map((t) => ({ id: id(t.id), addedAt: t.addedAt }));
    const member = { id: memberId, workspaceId: ws, email: r.email.toLowerCase(), name: r.name, role: r.role, active: r.active, createdAt: r.createdAt };
    return [
      { ...keys.memberEmail(ws, member.email), kind: 'memberEmail', memberId, [QUIET_WRITE]: quiet },
      {
        ...keys.member(ws, memberId),
        kind: 'member',
        ...member,
        ...(teams.length ? { teamIds: new Set(teams.map((t) => t.id)) } : {}),
        gsi1pk: keys.membersOf(ws),
        gsi1sk: keys.listPosition(r.createdAt, memberId),
        [QUIET_WRITE]: quiet,
      },
      ...teams.map((t) => ({
        ...keys.teamMembership(ws, t.id, memberId),
        kind: 'teamMembership',
        teamId: t.id,
        memberId,
        addedAt: t.addedAt,
        gsi2pk: keys.teamMembersOf(ws, t.id),
        gsi2sk: keys.listPosition(t.addedAt, memberId),
        [QUIET_WRITE]: quiet,
      })),
    ];
  },
  tagValue: (r, { ws, id, quiet }) => {
    const value = { id: id(r.id), name: r.name, color: r.color, createdAt: r.createdAt };
    return newTagValueItems(ws, value).map((w) => ({ ...w.Put!.Item, [QUIET_WRITE]: quiet }));
  },
  customField: (r, { ws, id, quiet }) => {
    // As mapFields maps the keys that name it: a uuid in upper case is the same field.
    const fieldId = id(isUuid(r.id) ? r.id.toLowerCase() : r.id);
    return [
      {
        ...keys.customField(ws, fieldId),
        kind: 'customField',
        workspaceId: ws,
        id: fieldId,
        entityType: r.entityType,
        name: r.name,
        fieldKind: r.fieldKind,
        ...(r.options ? { options: r.options } : {}),
        ...(r.values ? { values: r.values } : {}),
        ...(r.replaced ? { replaced: r.replaced } : {}),
        createdAt: r.createdAt,
        [QUIET_WRITE]: quiet,
      },
      { ...customFieldNameGuard(ws, { id: fieldId, entityType: r.entityType, name: r.name }), [QUIET_WRITE]: quiet },
    ];
  },
  entity: (r, { ws, id, quiet }) => {
    const entityId = id(r.id);
    const parent = r.parent && { id: id(r.parent.id), type: r.parent.type };
    const fields = mapFields(r.fields, id);
    const entity = {
      id: entityId,
      type: r.type,
      ...(parent ? { parentId: parent.id, parentType: parent.type } : {}),
      fields,
      ...(r.metadata ? { metadata: r.metadata } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      // The aggregates pass writes the scores once every link is in (./aggregates-fresh.ts).
      ...(isHierarchyType(r.type) ? { own: 0, total: 0 } : {}),
    };
    return [
      {
        ...keys.entity(ws, entityId),
        kind: 'entity',
        ...entity,
        gsi1pk: keys.entitiesOfType(ws, r.type),
        gsi1sk: keys.listPosition(r.createdAt, entityId),
        ...(parent ? { gsi2pk: keys.childrenOf(ws, parent.id), gsi2sk: keys.listPosition(r.parent!.joinedAt ?? r.createdAt, entityId) } : {}),
        ...keys.ownerIndex(ws, 'entity', entity),
        [QUIET_WRITE]: quiet,
      },
      ...customerEmailWrites(ws, entity, undefined).map((w) => ({ ...w.Put!.Item, [QUIET_WRITE]: quiet })),
    ];
  },
  relation: (r, { ws, id, quiet }) => {
    const [a, b] = [id(r.entityId), id(r.targetId)];
    const mirror = r.type === 'isBlockedBy' ? 'isBlocking' : r.type === 'isBlocking' ? 'isBlockedBy' : 'link';
    return [
      {
        ...keys.relation(ws, a, r.type, b),
        kind: 'relation',
        entityId: a,
        type: r.type,
        targetId: b,
        targetType: r.targetType,
        createdAt: r.createdAt,
        [QUIET_WRITE]: quiet,
      },
      {
        ...keys.relation(ws, b, mirror, a),
        kind: 'relation',
        entityId: b,
        type: mirror,
        targetId: a,
        targetType: r.entityType,
        createdAt: r.createdAt,
        [QUIET_WRITE]: quiet,
      },
    ];
  },
  note: (r, { ws, id, quiet }) => {
    const noteId = id(r.id);
    const customer = r.customer && { id: id(r.customer.id), type: r.customer.type };
    const links = r.links.map((l) => ({ entityId: id(l.entityId), entityType: l.entityType, importance: l.importance, setAt: toMs(l.ratedAt) }));
    return [
      {
        ...noteItem(
          ws,
          { id: noteId, type: r.type, fields: mapFields(r.fields, id), customer, metadata: r.metadata, createdAt: r.createdAt, updatedAt: r.updatedAt },
          links,
        ),
        [QUIET_WRITE]: quiet,
      },
      ...links.map((l) => ({ ...linkItem(ws, { noteId, ...l, ...(customer ? { customerId: customer.id } : {}), rev: 1 }), [QUIET_WRITE]: quiet })),
    ];
  },
  comment: (r, { ws, id, quiet }) => {
    const [commentId, noteId] = [id(r.id), id(r.noteId)];
    return [
      {
        ...keys.comment(ws, noteId, r.createdAt, commentId),
        kind: 'comment',
        id: commentId,
        noteId,
        content: r.content,
        author: { id: id(r.author.id), email: r.author.email },
        createdAt: r.createdAt,
        [QUIET_WRITE]: quiet,
      },
    ];
  },
  webhook: (r, { ws, id, quiet, sealedSecret }) => {
    const webhookId = id(r.id);
    return [
      {
        ...keys.webhook(ws, webhookId),
        kind: 'webhook',
        id: webhookId,
        name: r.name,
        events: r.events,
        url: r.url,
        version: r.version,
        // Restored paused: its secrets stayed behind, so it could not sign a delivery its receiver verifies.
        status: 'paused',
        createdAt: r.createdAt,
        ...(r.createdByClient ? { createdByClient: r.createdByClient } : {}),
        sealedSigningSecret: sealedSecret(webhookId),
        failureStreak: 0,
        gsi1pk: keys.webhooksOf(ws),
        gsi1sk: keys.listPosition(r.createdAt, webhookId),
        [QUIET_WRITE]: quiet,
      },
    ];
  },
};

/** The items one record is restored as. */
export const itemsOf = (record: RecordOf<MoveKind>, ctx: LoadContext): Item[] =>
  (KINDS[record.kind] as (r: RecordOf<MoveKind>, c: LoadContext) => Item[])(record, ctx);
