// A bulk move's run (restore, `import productboard`, `import notes`): one item saying which workspace
// it writes, how far it got (a checkpoint after each batch written) and whether it is complete. The
// same command finds it again by its key (the hash of the command and its inputs), so a run killed at
// any point — SIGKILL included — continues from its last checkpoint: everything after it is written
// again, which changes nothing, since ids are deterministic (./ids.ts) and items are written whole.
// A run into a new workspace that is not complete can be abandoned instead (./abandon.ts): from then
// on it only ends, never continues.
import { createHash } from 'node:crypto';
import { getItem, putItem, updateItem } from '../calls.ts';
import { isConditionFailed } from '../errors.ts';
import * as keys from '../keys.ts';
import { tableName } from '../table.ts';

export type RunState = 'loading' | 'aggregating' | 'complete' | 'abandoning';

/** A run that was being abandoned when its own command went on with it: it stops, writing nothing more of its own. */
export class MoveAbandoned extends Error {
  static readonly code = 'ERR_MOVE_ABANDONED';
  readonly code = MoveAbandoned.code;

  constructor(readonly run: Pick<MoveRun, 'command' | 'name'>) {
    super(
      `The ${run.command} into "${run.name}" is being abandoned (--abandon): it does not continue. Run the same command with --abandon to finish abandoning it, then without to begin again.`,
    );
    this.name = 'MoveAbandoned';
  }
}

export interface MoveRun<C = Record<string, unknown>> {
  runKey: string;
  command: string;
  workspaceId: string;
  name: string;
  state: RunState;
  /** The SHA-256 of the input file (restore): a run continues with the file it began with only. */
  digest?: string;
  /** Where loading stands: a position in the input, per run kind. */
  checkpoint: C;
  /** Records written by kind, as of the checkpoint. */
  counts: Record<string, number>;
  /** Why records could not be moved, by reason, as of the checkpoint. */
  skipped: Record<string, number>;
  startedAt: string;
  completedAt?: string;
}

/** The key of a run: a hash of the words that name it (never a secret itself: callers hash those first). */
export const runKeyOf = (...parts: string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex');

export async function readRun<C>(runKey: string): Promise<MoveRun<C> | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.moveRun(runKey), ConsistentRead: true });
  return Item ? (Item as unknown as MoveRun<C>) : undefined;
}

/** The run of `runKey`: the one begun earlier, or `fresh` stored now (two commands racing: one wins, both get it). */
export async function beginRun<C>(fresh: Omit<MoveRun<C>, 'state' | 'counts' | 'skipped' | 'startedAt'>): Promise<{ run: MoveRun<C>; resumed: boolean }> {
  const existing = await readRun<C>(fresh.runKey);
  if (existing?.state === 'abandoning') throw new MoveAbandoned(existing);
  if (existing) return { run: existing, resumed: true };
  const run: MoveRun<C> = { ...fresh, state: 'loading', counts: {}, skipped: {}, startedAt: new Date().toISOString() };
  try {
    await putItem({ TableName: tableName(), Item: { ...keys.moveRun(run.runKey), kind: 'moveRun', ...run }, ConditionExpression: 'attribute_not_exists(pk)' });
    return { run, resumed: false };
  } catch (err) {
    if (!isConditionFailed(err)) throw err;
    const run = (await readRun<C>(fresh.runKey))!;
    if (run.state === 'abandoning') throw new MoveAbandoned(run);
    return { run, resumed: true };
  }
}

/**
 * Records how far the run got; what was written before it is never written again. A run abandoned
 * meanwhile (or already gone) is MoveAbandoned: its command stops at its next checkpoint.
 */
export async function saveProgress<C>(
  run: MoveRun<C>,
  patch: Partial<Pick<MoveRun<C>, 'state' | 'checkpoint' | 'counts' | 'skipped' | 'completedAt'>>,
): Promise<void> {
  const entries = Object.entries(patch);
  try {
    await updateItem({
      TableName: tableName(),
      Key: keys.moveRun(run.runKey),
      UpdateExpression: `SET ${entries.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk) AND #state <> :abandoning',
      ExpressionAttributeNames: { ...Object.fromEntries(entries.map(([k], i) => [`#a${i}`, k])), '#state': 'state' },
      ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])), ':abandoning': 'abandoning' },
    });
  } catch (err) {
    if (isConditionFailed(err)) throw new MoveAbandoned(run);
    throw err;
  }
  Object.assign(run, patch);
}
