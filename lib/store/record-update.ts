// The update of one live record, an entity or a note (lib/store/entity-writes.ts updateEntity,
// lib/store/notes.ts updateNote): fields set or cleared, metadata merged key by key, the owner index
// (GSI3) kept in step, and the write conditioned on the version read, so a concurrent write makes
// the transaction retry from a fresh read.
import { nextUpdatedAt } from './entities.ts';
import * as keys from './keys.ts';
import type { ItemKey } from './keys.ts';
import { tableName } from './table.ts';
import type { TxItem } from './tx.ts';
import { InvalidInput, pointer } from '../domain/errors.ts';
import { mergeMetadata, type Metadata, type SourcePatch } from '../domain/metadata.ts';
import { recordSizeProblem } from '../domain/record-size.ts';

/** A change of a record's fields (null clears one) and metadata (merged key by key). */
export interface RecordChange {
  values: Record<string, unknown>;
  metadata?: { source?: SourcePatch | null } | undefined;
}

interface Updatable {
  id: string;
  createdAt: string;
  updatedAt: string;
  fields: Record<string, unknown>;
  metadata?: Metadata | undefined;
}

/**
 * The record after `change`, and its Update. `condition` is what else must hold of the stored item
 * besides the version (e.g. its kind and that no delete has begun), with its own `values`.
 */
export function recordUpdate<T extends Updatable>(
  ws: string,
  kind: 'entity' | 'note',
  key: ItemKey,
  current: T,
  change: RecordChange,
  condition: { expression: string; values?: Record<string, unknown> },
): { updated: T; item: TxItem } {
  const fields = { ...current.fields };
  for (const [k, v] of Object.entries(change.values)) {
    if (v === null) delete fields[k];
    else fields[k] = v;
  }
  const metadata = change.metadata ? mergeMetadata(current.metadata, change.metadata) : current.metadata;
  const tooLarge = recordSizeProblem(`${kind === 'entity' ? 'Entity' : 'Note'} ${current.id}`, { fields, metadata }, current);
  if (tooLarge) throw new InvalidInput(tooLarge, pointer(['data']));
  const updated: T = { ...current, fields, updatedAt: nextUpdatedAt(current.updatedAt) };
  delete updated.metadata;
  if (metadata) updated.metadata = metadata;
  const owner = keys.ownerIndex(ws, kind, updated);
  const sets = ['#f = :f', 'updatedAt = :u', ...(metadata ? ['metadata = :m'] : []), ...(owner ? ['gsi3pk = :o', 'gsi3sk = :os'] : [])];
  const removes = [...(metadata ? [] : ['metadata']), ...(owner ? [] : ['gsi3pk', 'gsi3sk'])];
  const item: TxItem = {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: `${condition.expression} AND updatedAt = :was`,
      ExpressionAttributeNames: { '#f': 'fields' },
      ExpressionAttributeValues: {
        ...condition.values,
        ':f': fields,
        ':u': updated.updatedAt,
        ':was': current.updatedAt,
        ...(metadata ? { ':m': metadata } : {}),
        ...(owner ? { ':o': owner.gsi3pk, ':os': owner.gsi3sk } : {}),
      },
    },
  };
  return { updated, item };
}
