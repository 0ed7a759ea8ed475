// What the document client sends to DynamoDB during a test: a middleware that records (does not
// alter) every command with when it started and answered.
import { db } from '#lib/store/client.ts';

interface SentCommand {
  /** The command's name without the `Command` suffix: `GetItem`, `BatchGetItem`, ... */
  command: string;
  start: number;
  end: number;
  /** A BatchGetItem's keys, all tables together. */
  keys?: number;
  /** The error's name, when the command failed. */
  failed?: string;
}

/** Starts recording; `sent` fills as commands go out, `clear` empties it, `stop` removes the middleware. */
export function recordCommands(name: string): { sent: SentCommand[]; clear: () => void; stop: () => void } {
  const sent: SentCommand[] = [];
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const s: SentCommand = { command: (context.commandName ?? '?').replace(/Command$/, ''), start: performance.now(), end: Infinity };
      const batch = (args.input as { RequestItems?: Record<string, { Keys?: unknown[] }> }).RequestItems;
      if (s.command === 'BatchGetItem' && batch) s.keys = Object.values(batch).reduce((n, t) => n + (t.Keys?.length ?? 0), 0);
      sent.push(s);
      try {
        return await next(args);
      } catch (err) {
        s.failed = (err as { name?: string }).name ?? 'Error';
        throw err;
      } finally {
        s.end = performance.now();
      }
    },
    { step: 'initialize', name },
  );
  return {
    sent,
    clear: () => {
      sent.length = 0;
    },
    stop: () => {
      db().middlewareStack.remove(name);
    },
  };
}

/** Commands grouped into rounds: a command's round is one more than the latest round that had answered before it started. */
export function rounds(calls: readonly SentCommand[]): string[][] {
  const depth: number[] = [];
  calls.forEach((c, i) => {
    depth[i] = 1 + Math.max(0, ...calls.slice(0, i).map((p, j) => (p.end <= c.start ? depth[j]! : 0)));
  });
  const out: string[][] = [];
  calls.forEach((c, i) => (out[depth[i]! - 1] ??= []).push(c.command));
  return out;
}
