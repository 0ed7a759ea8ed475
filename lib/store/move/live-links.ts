// Links added in bulk to a workspace people are using (`admin import notes`): the notes themselves
// go in raw (./load.ts), their links go in with their aggregates — a transaction per group of up to
// GROUP links to one entity, each of them from a different customer: the link items, each customer's
// rating item, the note's revision (so a concurrent whole-note change notices), and one own/total
// delta on the entity and its ancestors (lib/store/aggregates.ts planLinkChange, Plan). Exact at every
// moment whatever the API writes meanwhile (lib/store/tx.ts rebuilds a group from fresh reads), and
// idempotent: links already in (an earlier run's) are left out.
import type { HierarchyType } from '../../domain/hierarchy.ts';
import type { Importance } from '../../domain/score.ts';
import { Plan, planLinkChange } from '../aggregates.ts';
import { batchGetByKey, itemKeyId } from '../batch.ts';
import { readChain } from '../entities.ts';
import * as keys from '../keys.ts';
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

/**
 * Adds the links with their aggregates; answers how many were added and the links whose entity is
 * gone (or being deleted), which are not.
 */
export async function addLiveLinks(ws: string, links: readonly NewLiveLink[], onGroup?: (added: number) => void): Promise<{ added: number; entityGone: number }> {
  let added = 0;
  let entityGone = 0;
  for (const group of groups(links)) {
    const result = await transact('importNotes', async () => {
      const present = await batchGetByKey(group.map((l) => keys.link(ws, l.noteId, l.entityId)), { consistent: true });
      const todo = group.filter((l) => !present.has(itemKeyId(keys.link(ws, l.noteId, l.entityId))));
      if (todo.length === 0) return { items: [], result: { added: 0, gone: 0 } };
      const { chain, complete } = await readChain(ws, group[0]!.entityId);
      if (!chain.length || !complete || chain.some((e) => e.deleting)) return { items: [], result: { added: 0, gone: todo.length } };
      const plan = new Plan(ws);
      for (const l of todo) {
        await planLinkChange(ws, plan, { noteId: l.noteId, entityId: l.entityId, entityType: l.entityType, chain, after: { customerId: l.customerId, importance: l.importance, setAt: l.setAt } });
        // The note must still be there with the customer the link was rated for; new links bump its revision.
        plan.add({
          Update: {
            TableName: tableName(),
            Key: keys.note(ws, l.noteId),
            UpdateExpression: 'SET linkRev = if_not_exists(linkRev, :zero) + :one',
            ConditionExpression: l.customerId ? 'attribute_exists(pk) AND attribute_not_exists(deleting) AND customer.id = :c' : 'attribute_exists(pk) AND attribute_not_exists(deleting) AND attribute_not_exists(customer)',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ...(l.customerId ? { ':c': l.customerId } : {}) },
          },
        });
      }
      return { items: plan.build(), result: { added: todo.length, gone: 0 } };
    });
    added += result.added;
    entityGone += result.gone;
    onGroup?.(added);
  }
  return { added, entityGone };
}
