// The in-process stand-in for the deployed SQS FIFO delivery queue: messages of one group leave
// strictly in order, one at a time (a failing head holds its group, as an in-flight FIFO message
// does); a retry waits the time the delivery code asks for (the same schedule, possibly compressed);
// a dead message goes to the dead-letter list; a message id seen in the last five minutes is
// dropped, as FIFO deduplication does. Other groups go on meanwhile, a few at a time.

export interface QueueMessage<T> {
  groupId: string;
  dedupId: string;
  body: T;
}

export type AttemptOutcome = { kind: 'done' } | { kind: 'retry'; waitMs: number } | { kind: 'dead'; reason: string };

/** Tries one message; `attempt` counts receives from 1, like SQS's ApproximateReceiveCount. */
export type Attempt<T> = (body: T, attempt: number) => Promise<AttemptOutcome>;

export interface DeadLetter<T> {
  body: T;
  reason: string;
  attempts: number;
}

interface Entry<T> {
  message: QueueMessage<T>;
  attempts: number;
  readyAt: number;
}

const DEDUP_WINDOW_MS = 5 * 60 * 1000;

export class LocalDeliveryQueue<T> {
  readonly deadLetters: Array<DeadLetter<T>> = [];
  private readonly groups = new Map<string, Entry<T>[]>();
  private readonly busy = new Set<string>();
  private readonly seen = new Map<string, number>();
  private timer: { at: number; handle: NodeJS.Timeout } | undefined;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly options: {
      attempt: Attempt<T>;
      /** When an attempt throws (a fault of ours, not the receiver's): how long until the message is tried again. */
      waitAfterFault: (attempt: number) => number | undefined;
      concurrency?: number;
      onDead?: (letter: DeadLetter<T>) => void;
      onFault?: (err: unknown) => void;
    },
  ) {}

  send(messages: Array<QueueMessage<T>>): void {
    const now = Date.now();
    for (const [id, at] of this.seen) if (now - at > DEDUP_WINDOW_MS) this.seen.delete(id);
    for (const m of messages) {
      if (this.seen.has(m.dedupId)) continue;
      this.seen.set(m.dedupId, now);
      const group = this.groups.get(m.groupId) ?? [];
      group.push({ message: m, attempts: 0, readyAt: now });
      this.groups.set(m.groupId, group);
    }
    this.pump();
  }

  /** Messages not yet delivered, dead or dropped. */
  get pending(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.length;
    return n;
  }

  /** Resolves when every message sent so far is done, dead or dropped. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops sending; returns how many messages were still pending. */
  stop(): number {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer.handle);
    this.timer = undefined;
    const left = this.pending;
    for (const w of this.idleWaiters.splice(0)) w();
    return left;
  }

  private pump(): void {
    if (this.stopped) return;
    const limit = this.options.concurrency ?? 8;
    const now = Date.now();
    let nextReady = Infinity;
    for (const [groupId, group] of this.groups) {
      if (this.busy.size >= limit) return;
      const head = group[0];
      if (!head || this.busy.has(groupId)) continue;
      if (head.readyAt > now) {
        nextReady = Math.min(nextReady, head.readyAt);
        continue;
      }
      this.busy.add(groupId);
      void this.run(groupId, head);
    }
    if (nextReady !== Infinity) this.wakeAt(nextReady);
  }

  /** One timer, for the earliest waiting retry. */
  private wakeAt(at: number): void {
    if (this.timer && this.timer.at <= at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    this.timer = {
      at,
      handle: setTimeout(
        () => {
          this.timer = undefined;
          this.pump();
        },
        Math.max(0, at - Date.now()),
      ),
    };
  }

  private async run(groupId: string, entry: Entry<T>): Promise<void> {
    entry.attempts++;
    let outcome: AttemptOutcome;
    try {
      outcome = await this.options.attempt(entry.message.body, entry.attempts);
    } catch (err) {
      this.options.onFault?.(err);
      const waitMs = this.options.waitAfterFault(entry.attempts);
      outcome = waitMs === undefined ? { kind: 'dead', reason: 'the delivery kept failing inside the service' } : { kind: 'retry', waitMs };
    }
    const group = this.groups.get(groupId)!;
    if (outcome.kind === 'retry') entry.readyAt = Date.now() + outcome.waitMs;
    else {
      group.shift();
      if (group.length === 0) this.groups.delete(groupId);
      if (outcome.kind === 'dead') {
        const letter = { body: entry.message.body, reason: outcome.reason, attempts: entry.attempts };
        this.deadLetters.push(letter);
        this.options.onDead?.(letter);
      }
    }
    this.busy.delete(groupId);
    if (this.pending === 0) for (const w of this.idleWaiters.splice(0)) w();
    this.pump();
  }
}
