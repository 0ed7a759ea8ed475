// The hot path's two calls — the bearer check's BatchGetItem and every transaction — through the
// lean sender (./sender.ts), beside the document client of lib/store/client.ts. Its own module so
// that only the functions that make these calls carry the sender, and bundle-sizes' baseline
// (infra/baseline-handler.ts, the document client alone) does not.
import { sdkHotCalls } from '#lib/store/hot-calls-sdk.ts';
import { clients, tableName } from './client.ts';
import { leanSender, type BatchRead, type HotCalls, type NativeTxItem } from './sender.ts';
import { config } from '../config.ts';

let made: { key: string; lean: HotCalls } | undefined;

/**
 * The lean sender for the current endpoint, unless something was added to the document client —
 * a middleware or a replaced `send`: the tests' observers and injected faults, the benches'
 * captures — so whatever watches the client sees every call those make (./hot-calls-sdk.ts).
 */
function hot(): HotCalls {
  const c = clients();
  if (sdkHotCalls && c.observed()) return sdkHotCalls;
  if (made?.key !== c.key) made = { key: c.key, lean: leanSender({ endpoint: c.endpoint, region: config.region, credentials: c.credentials }) };
  return made.lean;
}

/** One TransactWriteItems of document-client items (lib/store/tx.ts retries it). */
export const transactWrite = (items: NativeTxItem[]): Promise<void> => hot().transactWrite(items);

/** One BatchGetItem of `keys` in the table: the items found and the keys DynamoDB left unprocessed (lib/store/batch.ts retries them). */
export const batchGetOnce = (keys: Array<Record<string, unknown>>, read: BatchRead) => hot().batchGet(tableName(), keys, read);
