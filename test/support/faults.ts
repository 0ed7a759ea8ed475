// Faults DynamoDB Local cannot produce, injected into the shared document client (mocks, named as
// such in the tests that use them).
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';
import { db } from '#lib/store/client.ts';

/**
 * Runs `request` with a 1 s request budget while every TransactWriteItems answers 1.5 s after it
 * committed: the client gets a 408 although the write landed (the case a retry must not repeat).
 */
export async function withLateCommits<T>(request: () => Promise<T>): Promise<T> {
  const budget = process.env.REQUEST_TIMEOUT_MS;
  process.env.REQUEST_TIMEOUT_MS = '1000';
  const doc = db();
  const real = doc.send.bind(doc) as (command: unknown) => Promise<unknown>;
  vi.spyOn(doc, 'send').mockImplementation((async (command: unknown) => {
    const out = await real(command);
    if (command instanceof TransactWriteCommand) await new Promise((r) => setTimeout(r, 1500));
    return out;
  }) as never);
  try {
    return await request();
  } finally {
    vi.restoreAllMocks();
    process.env.REQUEST_TIMEOUT_MS = budget;
  }
}
