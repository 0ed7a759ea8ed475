// `admin index backfill`: gives items written before an index existed their entries in it — the
// owner index (GSI3) of entities and notes, the member list (GSI1) of members, the e-mail look-up
// of users, an entity's links by time (GSI3 of links) and a customer's notes by creation time (GSI2
// of notes, once keyed by the bare note id) — and removes look-ups left by nothing. Idempotent: a second run writes nothing.
// Each write is conditioned on the item as read, so a record changed meanwhile (whose write kept
// its own entries in step) is left alone.
import { toLink } from './aggregates.ts';
import { deleteItem, putItem, updateItem } from './calls.ts';
import { customerEmailOf } from './customers.ts';
import { toEntity } from './entities.ts';
import { isConditionFailed } from './errors.ts';
import * as keys from './keys.ts';
import { toMember } from './members.ts';
import { toNote } from './notes.ts';
import { queryAll, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import { workspaceIds } from './verify.ts';

interface BackfillReport {
  /** Items looked at. */
  checked: number;
  /** Index entries written or removed. */
  written: number;
}

async function conditional(write: () => Promise<unknown>): Promise<number> {
  try {
    await write();
    return 1;
  } catch (err) {
    if (isConditionFailed(err)) return 0;
    throw err;
  }
}

/** Sets (or removes, with undefined) an item's GSI3 attributes, if it still has the `updatedAt` read. */
function setOwnerIndex(item: StoredItem, owner: { gsi3pk: string; gsi3sk: string } | undefined) {
  return updateItem({
    TableName: tableName(),
    Key: { pk: item.pk, sk: item.sk },
    UpdateExpression: owner ? 'SET gsi3pk = :o, gsi3sk = :os' : 'REMOVE gsi3pk, gsi3sk',
    ConditionExpression: 'updatedAt = :was AND attribute_not_exists(deleting)',
    ExpressionAttributeValues: { ':was': item.updatedAt, ...(owner ? { ':o': owner.gsi3pk, ':os': owner.gsi3sk } : {}) },
  });
}

async function backfillWorkspace(ws: string): Promise<BackfillReport> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.partition(ws) }, ConsistentRead: true });
  const report: BackfillReport = { checked: 0, written: 0 };
  const lookups = new Map(items.filter((it) => it.kind === 'customerEmail').map((it) => [String(it.sk), it]));
  const wantedLookups = new Set<string>();
  for (const item of items) {
    if (item.kind === 'entity' || item.kind === 'note') {
      report.checked++;
      if (item.deleting) continue;
      const record = item.kind === 'entity' ? toEntity(item) : toNote(item);
      const owner = keys.ownerIndex(ws, item.kind, record);
      if (item.gsi3pk !== owner?.gsi3pk || item.gsi3sk !== owner?.gsi3sk) report.written += await conditional(() => setOwnerIndex(item, owner));
      if (item.kind === 'note' && item.gsi2pk !== undefined) {
        const position = keys.listPosition(record.createdAt, record.id);
        if (item.gsi2sk !== position) {
          report.written += await conditional(() =>
            updateItem({
              TableName: tableName(),
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: 'SET gsi2sk = :s',
              ConditionExpression: 'gsi2pk = :p AND attribute_not_exists(deleting)',
              ExpressionAttributeValues: { ':p': item.gsi2pk, ':s': position },
            }),
          );
        }
      }
      const email = item.kind === 'entity' ? customerEmailOf(toEntity(item)) : undefined;
      if (email !== undefined) {
        const key = keys.customerEmail(ws, email, record.id);
        wantedLookups.add(key.sk);
        if (!lookups.has(key.sk)) {
          await putItem({ TableName: tableName(), Item: { ...key, kind: 'customerEmail', email, userId: record.id } });
          report.written++;
        }
      }
    } else if (item.kind === 'link') {
      report.checked++;
      const l = toLink(item);
      const gsi3sk = keys.linkTimePosition(l.setAt, l.noteId);
      if (item.gsi3sk !== gsi3sk) {
        report.written += await conditional(() =>
          updateItem({
            TableName: tableName(),
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET gsi3pk = :p, gsi3sk = :s',
            // As read: a link re-rated meanwhile was written whole, with its own entries.
            ConditionExpression: 'setAt = :at',
            ExpressionAttributeValues: { ':p': keys.linksByTime(ws, l.entityId), ':s': gsi3sk, ':at': item.setAt },
          }),
        );
      }
    } else if (item.kind === 'member') {
      report.checked++;
      const m = toMember(item);
      if (item.gsi1pk === undefined) {
        report.written += await conditional(() =>
          updateItem({
            TableName: tableName(),
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET gsi1pk = :p, gsi1sk = :s',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':p': keys.membersOf(ws), ':s': keys.listPosition(m.createdAt, m.id) },
          }),
        );
      }
    }
  }
  // A look-up whose user is gone or has another e-mail now (a write that died half-way cannot leave
  // one — they are transactional — but a hand-edited table can).
  for (const [sk, item] of lookups) {
    if (wantedLookups.has(sk)) continue;
    report.written += await conditional(() =>
      deleteItem({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk }, ConditionExpression: 'attribute_exists(pk)' }),
    );
  }
  return report;
}

export async function backfillIndexes(options: { workspace?: string | undefined }): Promise<BackfillReport> {
  const ids = options.workspace ? [options.workspace] : await workspaceIds();
  const report: BackfillReport = { checked: 0, written: 0 };
  for (const ws of ids) {
    const r = await backfillWorkspace(ws);
    report.checked += r.checked;
    report.written += r.written;
  }
  return report;
}
