// The hot path's two calls through the document client (lib/store/client.ts), for when something
// watches that client — the tests' observers and injected faults, the benches' captures — so it sees
// them as it sees every other call (./hot-calls.ts). Deployed bundles load ./hot-calls-sdk.bundled.ts
// instead (infra/bundling.ts): nothing adds middleware or replaces `send` there, and these two
// commands would carry their SDK command classes and schemas (about 3 KiB) into every function that
// makes the calls.
import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client.ts';
import type { HotCalls } from './sender.ts';

export const sdkHotCalls: HotCalls | undefined = {
  async transactWrite(items) {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  },
  async batchGet(table, keys, read) {
    const out = await db().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ...read } } }));
    return { items: out.Responses?.[table] ?? [], unprocessed: out.UnprocessedKeys?.[table]?.Keys ?? [] };
  },
};
