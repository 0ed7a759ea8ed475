// Links added in bulk to a workspace people are using (`admin import notes`): the notes themselves
// go in raw (./load.ts), their links go in with their aggregates — a transaction per group of up to
// GROUP links to one entity, each of them from a different customer: the link items, each customer's
// rating item, the note's revision (so a concurrent whole-note change notices) and its copy of its
// links (lib/store/note-link-copy.ts: the note was written with an empty copy, and a link missing from
// it would be missing from every page of notes), and one own/total delta on the entity and its
// ancestors (lib/store/aggregates.ts planLinkChange, Plan). Exact at every
// moment whatever the API writes meanwhile (lib/store/tx.ts rebuilds a group from fresh reads), and
// idempotent: links already in (an earlier run's) are left out.
import type { HierarchyType } from '../../domain/hierarchy.ts';
import type { Importance } from '../../domain/score.ts';
import { Plan, planLinkChange } from '../aggregates.ts';
import { batchGetByKey, itemKeyId } from '../batch.ts';
import { readChain } from '../entities.ts';
import * as keys from '../keys.ts';
import { copyUpdate } from '../note-link-copy.ts';
import { toNote, type NoteItem } from '../notes.ts';
import { tableName } from '../table.ts';
import { transact } from '../tx.ts';

export interface NewLiveLink {
  noteId: string;
  entityId: string;
  entityType: HierarchyType;
  customerId?: string | undefined;
  importance: Importance;
  setAt: number;
}

/**
 * The note's update for a new link: the revision bumped and the link put in the note's copy, on
 * condition that the note is as read (same customer, same revision, not being deleted), so a link
 * added to it meanwhile rebuilds the group from fresh reads instead of overfilling its copy.
 */
function noteUpdate(ws: string, note: NoteItem, link: NewLiveLink) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':zero': 0, ':one': 1 };
  const copy = note.linkCopy ? copyUpdate(note.linkCopy, [link], names, values) : {};
  const conditions = ['attribute_exists(pk)', 'attribute_not_exists(deleting)'];
  if (note.customer) {
    conditions.push('customer.id = :c');
    values[':c'] = note.customer.id;
  } else conditions.push('attribute_not_exists(customer)');
  if (note.linkRev === undefined) conditions.push('attribute_not_exists(linkRev)');
  else {
    conditions.push('linkRev = :rev');
    values[':rev'] = note.linkRev;
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keys.note(ws, note.id),
      UpdateExpression: [
        `SET ${['linkRev = if_not_exists(linkRev, :zero) + :one', ...(copy.set ? [copy.set] : [])].join(', ')}`,
        copy.remove ? `REMOVE ${copy.remove}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeValues: values,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    },
  };
}

/** Links per transaction: three items each (link, rating, note) and the chain stay under DynamoDB's 100. */
const GROUP = 25;

/** Groups of links to one entity, no customer (or anonymity) twice in a group. */
function groups(links: readonly NewLiveLink[]): NewLiveLink[][] {
  const byEntity = new Map<string, NewLiveLink[]>();
  for (const l of links) byEntity.set(l.entityId, [...(byEntity.get(l.entityId) ?? []), l]);
  const out: NewLiveLink[][] = [];
  for (const list of byEntity.values()) {
    const open: Array<{ links: NewLiveLink[]; customers: Set<string> }> = [];
    for (const l of list) {
      const who = l.customerId ?? `anonymous:${l.noteId}`;
      let g = open.find((x) => x.links.length < GROUP && !x.customers.has(who));
      if (!g) open.push((g = { links: [], customers: new Set() }));
      g.links.push(l);
      g.customers.add(who);
    }
    out.push(...open.map((g) => g.links));
  }
  return out;
}

/** What adding links did: added, and those left out because their entity or their note is gone. */
interface LiveLinksResult {
  added: number;
  entityGone: number;
  noteGone: number;
}

/**
 * Adds the links with their aggregates. A link whose note now has another customer than planned (an
 * API write meanwhile) is rated for the note's customer, as the API would rate it, in a later round
 * (a group holds each customer once).
 */
export async function addLiveLinks(ws: string, links: readonly NewLiveLink[], onGroup?: (added: number) => void, round = 0): Promise<LiveLinksResult> {
  const total: LiveLinksResult = { added: 0, entityGone: 0, noteGone: 0 };
  const moved: NewLiveLink[] = [];
  for (const group of groups(links)) {
    const result = await transact('importNotes', async () => {
      const none = { added: 0, entityGone: 0, noteGone: 0, moved: [] as NewLiveLink[] };
      const present = await batchGetByKey(
        group.map((l) => keys.link(ws, l.noteId, l.entityId)),
        { consistent: true },
      );
      const todo = group.filter((l) => !present.has(itemKeyId(keys.link(ws, l.noteId, l.entityId))));
      if (todo.length === 0) return { items: [], result: none };
      const { chain, complete } = await readChain(ws, group[0]!.entityId);
      if (!chain.length || !complete || chain.some((e) => e.deleting)) return { items: [], result: { ...none, entityGone: todo.length } };
      const notes = await batchGetByKey(
        todo.map((l) => keys.note(ws, l.noteId)),
        { consistent: true },
      );
      const plan = new Plan(ws);
      const out = { ...none, moved: [] as NewLiveLink[] };
      for (const l of todo) {
        const item = notes.get(itemKeyId(keys.note(ws, l.noteId)));
        const note = item && toNote(item);
        if (!note || note.deleting) out.noteGone++;
        else if (note.customer?.id !== l.customerId) out.moved.push({ ...l, customerId: note.customer?.id });
        else {
          await planLinkChange(ws, plan, {
            noteId: l.noteId,
            entityId: l.entityId,
            entityType: l.entityType,
            chain,
            after: { customerId: l.customerId, importance: l.importance, setAt: l.setAt },
          });
          plan.add(noteUpdate(ws, note, l));
          out.added++;
        }
      }
      return { items: plan.build(), result: out };
    });
    total.added += result.added;
    total.entityGone += result.entityGone;
    total.noteGone += result.noteGone;
    moved.push(...result.moved);
    onGroup?.(total.added);
  }
  if (moved.length === 0) return total;
  // Customers changing under every round is an API client racing the import: it can run again.
  if (round === 3) throw new Error(`${moved.length} notes kept changing customer while their links were added; run the command again.`);
  const more = await addLiveLinks(ws, moved, (n) => onGroup?.(total.added + n), round + 1);
  return { added: total.added + more.added, entityGone: total.entityGone + more.entityGone, noteGone: total.noteGone + more.noteGone };
}
