// The store's calls (./calls.ts) through the document client (./client.ts), for when something
// watches that client — the tests' recorders and injected faults, the benches' captures — so it sees
// every call as the SDK's command it would have been. Deployed bundles load ./calls-sdk.bundled.ts
// instead (infra/bundling.ts): nothing watches a client there, and this module would carry the whole
// SDK client, its credential chain and its middleware stack into every function.
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { clients, db } from './client.ts';
import type { Operation, Send } from './sender.ts';

const COMMANDS = {
  GetItem: GetCommand,
  PutItem: PutCommand,
  UpdateItem: UpdateCommand,
  DeleteItem: DeleteCommand,
  Query: QueryCommand,
  Scan: ScanCommand,
  BatchGetItem: BatchGetCommand,
  BatchWriteItem: BatchWriteCommand,
  TransactWriteItems: TransactWriteCommand,
  TransactGetItems: TransactGetCommand,
} satisfies Record<Operation, unknown>;

export const sdkCalls: { observed: () => boolean; send: Send } | undefined = {
  observed: () => clients().observed(),
  async send(operation, input) {
    const Command = COMMANDS[operation] as unknown as new (input: Record<string, unknown>) => GetCommand;
    const { $metadata: _, ...output } = (await db().send(new Command(input))) as Record<string, unknown>;
    return output;
  },
};
