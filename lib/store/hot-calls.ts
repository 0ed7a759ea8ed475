// The hot path's two calls — the bearer check's BatchGetItem and every transaction — through the
// lean sender (./sender.ts), beside the document client of lib/store/client.ts. Its own module so
// that only the functions that make these calls carry the sender, and bundle-sizes' baseline
// (infra/baseline-handler.ts, the document client alone) does not.
import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { clients, db, tableName } from './client.ts';
import { leanSender, type NativeTxItem } from './sender.ts';
import { config } from '../config.ts';

let made: { key: string; lean: ReturnType<typeof leanSender> } | undefined;

/**
 * The lean sender for the current endpoint, unless something was added to the document client —
 * a middleware or a replaced `send`: the tests' observers and injected faults, the benches'
 * captures — so whatever watches the client sees every call those make.
 */
function hot(): ReturnType<typeof leanSender> | undefined {
  const c = clients();
  if (c.observed()) return undefined;
  if (made?.key !== c.key) made = { key: c.key, lean: leanSender({ endpoint: c.endpoint, region: config.region, credentials: c.credentials }) };
  return made.lean;
}

/** One TransactWriteItems of document-client items (lib/store/tx.ts retries it). */
export async function transactWrite(items: NativeTxItem[]): Promise<void> {
  const lean = hot();
  if (lean) return lean.transactWrite(items);
  await db().send(new TransactWriteCommand({ TransactItems: items }));
}

/** One BatchGetItem of `keys` in the table: the items found and the keys DynamoDB left unprocessed. */
export async function batchGetOnce(keys: Array<Record<string, unknown>>, consistent: boolean): Promise<{ items: Array<Record<string, unknown>>; unprocessed: Array<Record<string, unknown>> }> {
  const lean = hot();
  const table = tableName();
  if (lean) return lean.batchGet(table, keys, consistent);
  const out = await db().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ...(consistent ? { ConsistentRead: true } : {}) } } }));
  return { items: out.Responses?.[table] ?? [], unprocessed: out.UnprocessedKeys?.[table]?.Keys ?? [] };
}
