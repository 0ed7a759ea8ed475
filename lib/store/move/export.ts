// A workspace read as the records of the export format (lib/domain/schemas/workspace-export.ts), kind
// by kind, page by page: what a read can show (nothing being deleted, nothing secret) plus each link's
// rating time. Memory stays bounded whatever the size: a page, the links of the notes of that page
// (notes and links are both ordered by note id, so they are read side by side), and a bounded cache
// of entities known to be live.
import { TAGS_FIELD } from '../../domain/field-values.ts';
import { isHierarchyType, type EntityType, type HierarchyType } from '../../domain/hierarchy.ts';
import type {
  CommentRecord,
  CustomFieldRecord,
  EntityRecord,
  MemberRecord,
  MoveKind,
  NoteRecord,
  RecordOf,
  RelationRecord,
  TagValueRecord,
  TeamRecord,
  WebhookRecord,
} from '../../domain/schemas/workspace-export.ts';
import { toLink, type LinkItem } from '../aggregates.ts';
import { batchGetByKey, itemKeyId } from '../batch.ts';
import { toComment } from '../comments.ts';
import { toEntity } from '../entities.ts';
import { withCurrentRefs } from '../field-refs.ts';
import { TAG_VALUE_KIND, toSelectValue } from '../field-values.ts';
import * as keys from '../keys.ts';
import { toMember } from '../members.ts';
import { toNote } from '../notes.ts';
import { partitionPages, type StoredItem } from '../query.ts';
import { toRelation } from '../relations.ts';
import { isTeamItem, toTeam } from '../teams.ts';
import { toWebhook } from '../webhooks.ts';

const PAGE = 200;

const ofKind = (ws: string, prefix: string, pageSize = PAGE): AsyncGenerator<StoredItem[]> => partitionPages(ws, prefix, undefined, pageSize);

/** Which entities are live (neither they nor an ancestor being deleted), with a bounded cache. */
class Liveness {
  private readonly known = new Map<string, { live: boolean; type: EntityType }>();
  constructor(
    private readonly ws: string,
    private readonly max = 20_000,
  ) {}

  private remember(id: string, v: { live: boolean; type: EntityType }): void {
    if (this.known.size >= this.max) this.known.delete(this.known.keys().next().value!);
    this.known.set(id, v);
  }

  /** The live ones of `ids`, with their types. */
  async live(ids: Iterable<string>): Promise<Map<string, EntityType>> {
    const want = [...new Set(ids)];
    // Each entity's chain, read a level at a time for the ids not yet known.
    const items = new Map<string, StoredItem>();
    let level = want.filter((id) => !this.known.has(id));
    for (let depth = 0; level.length > 0 && depth < 16; depth++) {
      const found = await batchGetByKey(
        level.map((id) => keys.entity(this.ws, id)),
        { consistent: true },
      );
      const next = new Set<string>();
      for (const id of level) {
        const it = found.get(itemKeyId(keys.entity(this.ws, id)));
        if (!it) {
          this.remember(id, { live: false, type: 'product' });
          continue;
        }
        items.set(id, it);
        const parent = it.parentId as string | undefined;
        if (parent && !this.known.has(parent) && !items.has(parent)) next.add(parent);
      }
      level = [...next];
    }
    const resolve = (id: string, hops = 0): boolean => {
      const k = this.known.get(id);
      if (k) return k.live;
      const it = items.get(id);
      if (!it || hops > 16) return false;
      const parent = it.parentId as string | undefined;
      const live = !it.deleting && (parent === undefined || resolve(parent, hops + 1));
      this.remember(id, { live, type: it.type as EntityType });
      return live;
    };
    const out = new Map<string, EntityType>();
    for (const id of want) if (resolve(id)) out.set(id, this.known.get(id)!.type);
    return out;
  }
}

async function* teams(ws: string): AsyncGenerator<TeamRecord> {
  for await (const page of ofKind(ws, 'TEAM#')) {
    for (const it of page) {
      if (!isTeamItem(it) || it.deleting) continue;
      const t = toTeam(it);
      yield {
        kind: 'team',
        id: t.id,
        name: t.name,
        handle: t.handle,
        ...(t.description !== undefined ? { description: t.description } : {}),
        createdAt: t.createdAt,
        updatedAt: t.updatedAt,
      };
    }
  }
}

async function* members(ws: string): AsyncGenerator<MemberRecord> {
  for await (const page of ofKind(ws, keys.membersPrefix)) {
    const list = page.filter((it) => it.kind === 'member').map(toMember);
    // Each membership's time (a team's members are listed by it), of live teams only.
    const memberships = await batchGetByKey(
      list
        .flatMap((m) => (m.teamIds ?? []).flatMap((t) => [keys.teamMembership(ws, t, m.id), keys.team(ws, t)]))
        .filter((k, i, all) => all.findIndex((o) => o.sk === k.sk) === i),
      { consistent: true },
    );
    for (const m of list) {
      const teams = (m.teamIds ?? []).flatMap((t) => {
        const team = memberships.get(itemKeyId(keys.team(ws, t)));
        const membership = memberships.get(itemKeyId(keys.teamMembership(ws, t, m.id)));
        return isTeamItem(team) && !team!.deleting && membership ? [{ id: t, addedAt: String(membership.addedAt) }] : [];
      });
      yield {
        kind: 'member',
        id: m.id,
        email: m.email,
        name: m.name,
        role: m.role,
        active: m.active,
        createdAt: m.createdAt,
        ...(teams.length ? { teams } : {}),
      };
    }
  }
}

async function* tagValues(ws: string): AsyncGenerator<TagValueRecord> {
  for await (const page of ofKind(ws, `FVAL#${TAGS_FIELD}#`)) {
    for (const it of page) {
      // A value deleted with a replacement is read as the replacement (the entities' tags are exported so).
      if (it.kind !== TAG_VALUE_KIND) continue;
      const v = toSelectValue(it);
      yield { kind: 'tagValue', id: v.id, name: v.name, color: v.color, createdAt: v.createdAt };
    }
  }
}

async function* customFields(ws: string): AsyncGenerator<CustomFieldRecord> {
  for await (const page of ofKind(ws, keys.customFieldsPrefix)) {
    for (const it of page) {
      const d = it as {
        id: string;
        entityType: string;
        name: string;
        fieldKind: CustomFieldRecord['fieldKind'];
        options?: string[];
        values?: CustomFieldRecord['values'];
        replaced?: Record<string, string>;
        createdAt: string;
      };
      yield {
        kind: 'customField',
        id: d.id,
        entityType: d.entityType,
        name: d.name,
        fieldKind: d.fieldKind,
        ...(d.options ? { options: d.options } : {}),
        ...(d.values ? { values: d.values.map((v) => ({ id: v.id, name: v.name, color: v.color, ...(v.seq !== undefined ? { seq: v.seq } : {}) })) } : {}),
        ...(d.replaced && Object.keys(d.replaced).length ? { replaced: d.replaced } : {}),
        createdAt: d.createdAt,
      };
    }
  }
}

async function* entities(ws: string, live: Liveness): AsyncGenerator<EntityRecord> {
  for await (const page of ofKind(ws, keys.kindPrefix.entity)) {
    const alive = await live.live(page.map((it) => it.id as string));
    // Tags and teams as a read names them now: replaced tags as their replacements, deleted ones left out.
    const current = await withCurrentRefs(ws, page.filter((it) => alive.has(it.id as string)).map(toEntity));
    for (const e of current) {
      const it = page.find((p) => p.id === e.id)!;
      const joinedAt = typeof it.gsi2sk === 'string' ? it.gsi2sk.slice(0, it.gsi2sk.lastIndexOf('#')) : undefined;
      yield {
        kind: 'entity',
        id: e.id,
        type: e.type,
        ...(e.parentId ? { parent: { id: e.parentId, type: e.parentType!, ...(joinedAt && joinedAt !== e.createdAt ? { joinedAt } : {}) } } : {}),
        fields: e.fields,
        ...(e.metadata ? { metadata: e.metadata } : {}),
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
        ...(isHierarchyType(e.type) ? { score: e.total ?? 0 } : {}),
      };
    }
  }
}

async function* relations(ws: string, live: Liveness): AsyncGenerator<RelationRecord> {
  for await (const page of ofKind(ws, 'REL#')) {
    // Each relation once: the isBlocking side of a block, the side of a link whose id is the smaller.
    const rels = page.map(toRelation).filter((r) => r.type === 'isBlocking' || (r.type === 'link' && r.entityId < r.targetId));
    const alive = await live.live(rels.flatMap((r) => [r.entityId, r.targetId]));
    for (const r of rels) {
      const [a, b] = [alive.get(r.entityId), alive.get(r.targetId)];
      if (!a || !b) continue;
      yield { kind: 'relation', entityId: r.entityId, entityType: a, type: r.type, targetId: r.targetId, targetType: b, createdAt: r.createdAt };
    }
  }
}

/** Link items in note order, handed out note by note as the notes pass asks for them. */
class LinkCursor {
  private readonly pages: AsyncGenerator<StoredItem[]>;
  private buffer: LinkItem[] = [];
  private ended = false;
  constructor(ws: string) {
    this.pages = ofKind(ws, keys.kindPrefix.link, 1000);
  }

  /** The links of every note up to `lastNoteId` (inclusive), by note; links of notes not asked for are dropped. */
  async upTo(lastNoteId: string): Promise<Map<string, LinkItem[]>> {
    const out = new Map<string, LinkItem[]>();
    for (;;) {
      while (this.buffer.length && this.buffer[0]!.noteId <= lastNoteId) {
        const l = this.buffer.shift()!;
        out.set(l.noteId, [...(out.get(l.noteId) ?? []), l]);
      }
      if (this.buffer.length || this.ended) return out;
      const next = await this.pages.next();
      if (next.done) this.ended = true;
      else this.buffer = next.value.map(toLink);
    }
  }
}

async function* notes(ws: string, live: Liveness): AsyncGenerator<NoteRecord> {
  const links = new LinkCursor(ws);
  for await (const page of ofKind(ws, keys.kindPrefix.note)) {
    if (page.length === 0) continue;
    const byNote = await links.upTo(page[page.length - 1]!.id as string);
    const list = page.map(toNote).filter((n) => !n.deleting);
    const alive = await live.live(list.flatMap((n) => [...(n.customer ? [n.customer.id] : []), ...(byNote.get(n.id) ?? []).map((l) => l.entityId)]));
    for (const n of list) {
      // A customer or a linked entity that is gone counts for nothing (verify --repair clears them).
      const customer = n.customer && alive.has(n.customer.id) ? n.customer : undefined;
      yield {
        kind: 'note',
        id: n.id,
        type: n.type,
        fields: n.fields,
        ...(customer ? { customer: { id: customer.id, type: customer.type } } : {}),
        ...(n.metadata ? { metadata: n.metadata } : {}),
        createdAt: n.createdAt,
        updatedAt: n.updatedAt,
        links: (byNote.get(n.id) ?? [])
          .filter((l) => isHierarchyType(alive.get(l.entityId)))
          .map((l) => ({
            entityId: l.entityId,
            entityType: l.entityType as HierarchyType,
            importance: l.importance,
            ratedAt: new Date(l.setAt).toISOString(),
          })),
      };
    }
  }
}

/** Comments of live notes, note by note (their items sort by note id, then time). */
async function* comments(ws: string): AsyncGenerator<CommentRecord> {
  for await (const page of ofKind(ws, 'COMMENT#')) {
    const notes = await batchGetByKey(
      [...new Set(page.map((it) => String(it.noteId)))].map((id) => keys.note(ws, id)),
      { consistent: true },
    );
    for (const it of page) {
      const note = notes.get(itemKeyId(keys.note(ws, String(it.noteId))));
      if (it.kind !== 'comment' || note?.kind !== 'note' || note.deleting) continue;
      const c = toComment(it);
      yield { kind: 'comment', id: c.id, noteId: c.noteId, content: c.content, author: { id: c.author.id, email: c.author.email }, createdAt: c.createdAt };
    }
  }
}

async function* webhooks(ws: string): AsyncGenerator<WebhookRecord> {
  for await (const page of ofKind(ws, keys.webhooksPrefix)) {
    for (const it of page) {
      if (it.kind !== 'webhook') continue;
      const w = toWebhook(it);
      yield {
        kind: 'webhook',
        id: w.id,
        name: w.name,
        events: w.events,
        url: w.url,
        version: 1,
        status: w.status,
        createdAt: w.createdAt,
        ...(w.createdByClient ? { createdByClient: w.createdByClient } : {}),
      };
    }
  }
}

/** How each kind is read for an export. */
const READERS: { [K in MoveKind]: (ws: string, live: Liveness) => AsyncGenerator<RecordOf<K>> } = {
  team: teams,
  member: members,
  customField: customFields,
  tagValue: tagValues,
  entity: entities,
  relation: relations,
  note: notes,
  comment: comments,
  webhook: webhooks,
};

/** Every record of the workspace, kind by kind in `kinds` order. */
export async function* exportRecords(ws: string, kinds: readonly MoveKind[]): AsyncGenerator<RecordOf<MoveKind>> {
  const live = new Liveness(ws);
  for (const kind of kinds) yield* (READERS[kind] as (ws: string, live: Liveness) => AsyncGenerator<RecordOf<MoveKind>>)(ws, live);
}
