// Request budgets in the table, one item per credential owner (a member, an application, a client
// of the token endpoint, a source address), shared by every function instance. The budget is a
// token bucket kept as a "theoretical arrival time" (GCRA, ITU-T I.371): `tat` is when the bucket
// will be full again; a bucket of capacity L refilled at L per second has
//   available(now) = floor((now + 1 s − max(tat, now)) / (1 s / L)).
// Instances take requests from it in leases of several at once (lib/http/rate-limiter.ts), so the
// table sees one conditional write per lease, not one per request.
import { getItem, updateItem } from './calls.ts';
import { isConditionFailed } from './errors.ts';
import * as keys from './keys.ts';
import { tableName } from './table.ts';

/** The bucket refills completely in this long. */
export const BUCKET_WINDOW_MS = 1000;

interface Lease {
  /** Requests granted (0: the bucket had none). */
  granted: number;
  /** The bucket's full-again time after this lease (epoch ms). */
  tat: number;
}

/** Requests the bucket holds at `now`. */
export function available(tat: number, now: number, limit: number): number {
  return Math.max(0, Math.floor((now + BUCKET_WINDOW_MS - Math.max(tat, now)) / (BUCKET_WINDOW_MS / limit)));
}

async function readTat(owner: string): Promise<number> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.rateBucket(owner), ConsistentRead: true });
  return Number((Item as { tat?: number } | undefined)?.tat ?? 0);
}

/**
 * Takes up to `want` requests from `owner`'s bucket (capacity and refill `limit` per second), as one
 * conditional write on the bucket's previous state; a lost race re-reads and tries again.
 * `knownTat`: the state this instance last saw (saves the read when nobody else moved it).
 */
export async function leaseBudget(owner: string, want: number, limit: number, knownTat = 0, now = Date.now()): Promise<Lease> {
  const interval = BUCKET_WINDOW_MS / limit;
  let tat = knownTat;
  for (let attempt = 0; attempt < 5; attempt++) {
    const granted = Math.min(want, available(tat, now, limit));
    // tat only grows (until TTL removes an idle bucket, which is then full), so a state seen
    // earlier never shows fewer requests than the table holds: refusing on it is safe.
    if (granted === 0) return { granted: 0, tat };
    const next = Math.max(tat, now) + granted * interval;
    try {
      await updateItem({
        TableName: tableName(),
        Key: keys.rateBucket(owner),
        UpdateExpression: 'SET tat = :next, #ttl = :ttl',
        // The state the grant was computed from: unchanged, or (when it was full) still full.
        ConditionExpression: tat <= now ? 'attribute_not_exists(tat) OR tat <= :now' : 'tat = :tat',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':next': next, ':ttl': Math.ceil(next / 1000) + 120, ...(tat <= now ? { ':now': now } : { ':tat': tat }) },
      });
      return { granted, tat: next };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      tat = await readTat(owner);
    }
  }
  // Five lost races in a row: the owner's other instances are busy with the same budget.
  return { granted: 0, tat };
}
