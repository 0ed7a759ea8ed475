// Per-process queues for writes that would only race each other: concurrent changes of one note's
// links in the same process wait their turn instead of sending transactions that all but one lose.
// Lambda runs one request per instance, so deployed this never waits; where one process serves many
// requests at once (the local gateway, a container) it turns a burst on one item from O(n²) wasted
// transactions into n. Contention between processes is still settled by lib/store/tx.ts's retry.
const tails = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier work queued on `key` in this process has settled. */
export async function queued<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
