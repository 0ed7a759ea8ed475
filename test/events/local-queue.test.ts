// The local stand-in for the FIFO delivery queue (local/delivery-queue.ts): order within a group
// even across retries, other groups not held up, retries at the asked wait, dead letters,
// deduplication of a message sent twice.
import { describe, expect, it } from 'vitest';
import { LocalDeliveryQueue, type AttemptOutcome } from '../../local/delivery-queue.ts';

const msg = (groupId: string, id: string) => ({ groupId, dedupId: id, body: id });

describe('local delivery queue', () => {
  it('a failing head holds its group (order kept through retries) while other groups go on', async () => {
    const log: string[] = [];
    let failures = 2;
    const queue = new LocalDeliveryQueue<string>({
      attempt: async (body, attempt) => {
        log.push(`${body}#${attempt}`);
        if (body === 'a1' && failures-- > 0) return { kind: 'retry', waitMs: 20 };
        return { kind: 'done' };
      },
      waitAfterFault: () => 10,
    });
    queue.send([msg('A', 'a1'), msg('A', 'a2'), msg('B', 'b1')]);
    await queue.idle();
    expect(log.filter((l) => l.startsWith('a'))).toEqual(['a1#1', 'a1#2', 'a1#3', 'a2#1']);
    expect(log.indexOf('b1#1')).toBeLessThan(log.indexOf('a1#2'));
  });

  it('dead messages land in the dead-letter list with their reason and attempts; a throw is retried like a failure', async () => {
    const outcomes: AttemptOutcome[] = [
      { kind: 'retry', waitMs: 5 },
      { kind: 'dead', reason: 'receiver kept failing' },
    ];
    let thrown = false;
    const queue = new LocalDeliveryQueue<string>({
      attempt: async (body) => {
        if (body === 'x') return outcomes.shift()!;
        if (!thrown) {
          thrown = true;
          throw new Error('table unavailable');
        }
        return { kind: 'done' };
      },
      waitAfterFault: (attempt) => (attempt < 3 ? 5 : undefined),
    });
    queue.send([msg('G', 'x'), msg('H', 'y')]);
    await queue.idle();
    expect(queue.deadLetters).toEqual([{ body: 'x', reason: 'receiver kept failing', attempts: 2 }]);
    expect(thrown).toBe(true);
    expect(queue.pending).toBe(0);
  });

  it('a message id sent again within five minutes is dropped', async () => {
    const seen: string[] = [];
    const queue = new LocalDeliveryQueue<string>({ attempt: async (b) => (seen.push(b), { kind: 'done' }), waitAfterFault: () => 1 });
    queue.send([msg('G', 'm1')]);
    queue.send([msg('G', 'm1'), msg('G', 'm2')]);
    await queue.idle();
    expect(seen).toEqual(['m1', 'm2']);
  });

  it('stop() cancels waiting retries and reports what was left', async () => {
    const queue = new LocalDeliveryQueue<string>({ attempt: async () => ({ kind: 'retry', waitMs: 60_000 }), waitAfterFault: () => 1 });
    queue.send([msg('G', 'm1'), msg('G', 'm2')]);
    await new Promise((r) => setTimeout(r, 20));
    expect(queue.stop()).toBe(2);
  });
});
