// The request's abort signal (lib/deadline.ts): what the SDK's request handlers and forRequest()
// rely on. That the SDK honours it on a real call is test/http/deadline.test.ts's.
import { describe, expect, it } from 'vitest';
import { forRequest, RequestSignal, requestScope, withinRequest } from '#lib/deadline.ts';

describe('RequestSignal', () => {
  it('calls every listener of the calls in flight once, with the first reason; a listener removed or added after the abort is not called', () => {
    const signal = new RequestSignal();
    const heard: string[] = [];
    const listeners = ['a', 'b', 'c'].map((name) => () => heard.push(`${name}:${signal.reason?.message}`));
    for (const l of listeners) signal.addEventListener('abort', l);
    signal.removeEventListener('abort', listeners[1]!);
    signal.onabort = () => heard.push('onabort');
    signal.abort(new Error('first'));
    signal.abort(new Error('second'));
    signal.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual(['a:first', 'c:first', 'onabort']);
    expect(signal.aborted).toBe(true);
    expect(signal.reason?.message).toBe('first');
  });
});

describe('withinRequest', () => {
  it('aborts with the timeout at the deadline: shared work the request waits for is given up with that error', async () => {
    const never = new Promise<never>(() => {});
    const started = Date.now();
    const outcome = withinRequest(
      started + 50,
      () => new Error('timed out'),
      () => forRequest(never),
    );
    await expect(outcome).rejects.toThrow('timed out');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('aborts once the work has settled: a call made afterwards from the request finds the signal aborted', async () => {
    let kept: RequestSignal | undefined;
    const answer = await withinRequest(
      Date.now() + 10_000,
      () => new Error('timed out'),
      async () => {
        kept = requestScope()?.signal;
        return 'answered';
      },
    );
    expect(answer).toBe('answered');
    expect(kept?.aborted).toBe(true);
    expect(kept?.reason?.name).toBe('RequestAnswered');
  });
});
