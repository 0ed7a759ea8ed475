// Faults DynamoDB Local cannot produce, injected on the wire by the fault proxy
// (./fault-proxy.ts) while a test's requests run: the store's real client meets them as deployed.
import { FAULTS, startFaultProxy, type FaultProxy, type Rule } from './fault-proxy.ts';

/** Runs `work` with every DynamoDB call of this process going through a proxy that applies `rule`. */
export async function withFaults<T>(rule: Rule, work: (proxy: FaultProxy) => Promise<T>): Promise<T> {
  const proxy = await startFaultProxy();
  proxy.rule = rule;
  const restore = proxy.use();
  try {
    return await work(proxy);
  } finally {
    restore();
    await proxy.close();
  }
}

/** Runs `work` with REQUEST_TIMEOUT_MS set to `ms`. */
export async function withBudget<T>(ms: number, work: () => Promise<T>): Promise<T> {
  const budget = process.env.REQUEST_TIMEOUT_MS;
  process.env.REQUEST_TIMEOUT_MS = String(ms);
  try {
    return await work();
  } finally {
    if (budget === undefined) delete process.env.REQUEST_TIMEOUT_MS;
    else process.env.REQUEST_TIMEOUT_MS = budget;
  }
}

/**
 * Runs `request` with a 1 s request budget while every TransactWriteItems reaches the table and its
 * answer is held back 1.5 s: the client gets a 408 although the write landed (the case a retry must
 * not repeat).
 */
export function withLateCommits<T>(request: () => Promise<T>): Promise<T> {
  return withBudget(1000, () => withFaults((call) => (call.operation === 'TransactWriteItems' ? FAULTS.withhold(1500) : FAULTS.forward()), request));
}
