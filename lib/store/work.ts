// Pending-work items: what is left of a write that takes more than one transaction. The write puts
// its item in the transaction of its first partial step, so a crash at any later point leaves it
// behind; whoever finishes the work (the request itself, or the sweeper: lib/store/sweep.ts)
// deletes it. Until then it says what remains (its `work` and `subject`: lib/store/sweep.ts maps
// each kind to the function that finishes it), and it is listed on GSI1 by the time it falls due.
//
// Who may work on an item at a time is a lease, its `due` time: the writer takes it for the rest of
// its request, the sweeper for one chunk of work (claimWork). An item is taken by a conditional
// update of its GSI1 position, so of two sweepers only one gets it; a worker that dies simply lets
// its lease run out. Every finishing step is idempotent, so work done twice (a lease that ran out
// while its holder was still busy) changes nothing.
import { randomUUID } from 'node:crypto';
import { deleteItem, getItem, queryPage, updateItem } from './calls.ts';
import { Contention, isConditionFailed, Unfinished } from './errors.ts';
import * as keys from './keys.ts';
import { partitionItems, type StoredItem } from './query.ts';
import { tableName } from './table.ts';
import type { TxItem } from './tx.ts';
import type { Importance } from '../domain/score.ts';

/**
 * What remains: a subtree delete's marks and clean-up (lib/store/cascade.ts), a stepwise note
 * delete, customer change or creation's links (lib/store/notes.ts), a stepwise team delete or
 * membership change (lib/store/teams.ts). The subject is the root entity, the note or the team (a
 * membership change: the team and the request's own id, `{teamId}:{uuid}`, since two changes of one
 * team may be pending at once).
 */
export type WorkKind = 'deleteEntity' | 'deleteNote' | 'noteCustomer' | 'noteLinks' | 'deleteTeam' | 'teamMembers';

/** A member's change of membership that a team update still has to make. */
export type MemberChange = [memberId: string, change: 'add' | 'remove'];

export interface Work {
  ws: string;
  work: WorkKind;
  subject: string;
  /** Who recorded it: the same work recorded again since (another token) is not the one finished. */
  token: string;
  createdAt: string;
  /** Epoch ms from which a sweeper may take it (the end of its current lease). */
  due: number;
  /** Chunks that failed so far; each failure puts the next try further off. */
  failures: number;
  lastError?: string;
  /** noteLinks: the links the note's creation still has to make, [entity id, importance]. */
  links?: Array<[string, Importance]>;
  /** teamMembers: the membership changes the team's update still has to make. */
  members?: MemberChange[];
}

const position = (w: Pick<Work, 'ws' | 'work' | 'subject'>, due: number) => keys.pendingWorkPosition(due, w.ws, w.work, w.subject);

function toWork(item: StoredItem): Work {
  const w = item as Partial<Work>;
  return {
    ws: w.ws!,
    work: w.work!,
    subject: w.subject!,
    token: w.token!,
    createdAt: w.createdAt!,
    due: Number(w.due),
    failures: Number(w.failures ?? 0),
    ...(w.lastError ? { lastError: w.lastError } : {}),
    ...(w.links ? { links: w.links } : {}),
    ...(w.members ? { members: w.members } : {}),
  };
}

/** Work as its holder knows it: enough to hand it back (releaseWork) or end it (workDone). */
export type HeldWork = Pick<Work, 'ws' | 'work' | 'subject' | 'token' | 'due'>;

/**
 * The Put that records new work, leased to its writer until `leaseUntil`: an item in the
 * transaction of the write's first partial step. Replaces the same work recorded earlier. `held`:
 * the work as the writer holds it once that transaction is in.
 */
export function workPut(
  ws: string,
  work: WorkKind,
  subject: string,
  options: { leaseUntil: number; links?: Array<[string, Importance]>; members?: MemberChange[] },
): { put: TxItem; held: HeldWork } {
  const token = randomUUID();
  const w: Work = {
    ws,
    work,
    subject,
    token,
    createdAt: new Date().toISOString(),
    due: options.leaseUntil,
    failures: 0,
    ...(options.links ? { links: options.links } : {}),
    ...(options.members ? { members: options.members } : {}),
  };
  return {
    held: { ws, work, subject, token, due: w.due },
    put: {
      Put: {
        TableName: tableName(),
        Item: { ...keys.pendingWork(ws, work, subject), kind: 'work', ...w, gsi1pk: keys.pendingWorkIndex, gsi1sk: position(w, w.due) },
      },
    },
  };
}

/**
 * Records the work unless it is recorded already (a delete resumed from a mark older than its
 * item, verify --repair adopting such a mark); leased until `leaseUntil` when new.
 */
export async function ensureWork(ws: string, work: WorkKind, subject: string, leaseUntil: number): Promise<void> {
  await updateItem({
    TableName: tableName(),
    Key: keys.pendingWork(ws, work, subject),
    UpdateExpression:
      'SET kind = :kind, ws = :ws, #work = :work, subject = :subject, #token = if_not_exists(#token, :token), createdAt = if_not_exists(createdAt, :now), due = if_not_exists(due, :due), failures = if_not_exists(failures, :zero), gsi1pk = :index, gsi1sk = if_not_exists(gsi1sk, :position)',
    ExpressionAttributeNames: { '#work': 'work', '#token': 'token' },
    ExpressionAttributeValues: {
      ':kind': 'work',
      ':ws': ws,
      ':work': work,
      ':subject': subject,
      ':token': randomUUID(),
      ':now': new Date().toISOString(),
      ':due': leaseUntil,
      ':zero': 0,
      ':index': keys.pendingWorkIndex,
      ':position': position({ ws, work, subject }, leaseUntil),
    },
  });
}

/** The recorded work, if any (consistent read). */
export async function readWork(ws: string, work: WorkKind, subject: string): Promise<Work | undefined> {
  const { Item } = await getItem({ TableName: tableName(), Key: keys.pendingWork(ws, work, subject), ConsistentRead: true });
  return Item ? toWork(Item) : undefined;
}

/** The work items of one workspace whose sort key starts with `skPrefix` (its partition, consistent). */
async function workUnder(ws: string, skPrefix: string): Promise<Work[]> {
  const items = await partitionItems(ws, skPrefix);
  return items.map(toWork);
}

/** Every work item of one workspace: what verify reports, what a test sweeps. */
export const workOf = (ws: string): Promise<Work[]> => workUnder(ws, keys.pendingWorkPrefix);

/** The work of one kind whose subject starts with `subjectPrefix`: a team's pending membership changes. */
export const workAbout = (ws: string, work: WorkKind, subjectPrefix: string): Promise<Work[]> => workUnder(ws, keys.pendingWork(ws, work, subjectPrefix).sk);

/** Work of every workspace due by `now`, soonest due first: one page (GSI1 is eventually consistent, so a sweep may see an item late, never wrongly). */
export async function dueWork(now: number, limit: number): Promise<Work[]> {
  const { Items } = await queryPage({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :w AND gsi1sk <= :by',
    ExpressionAttributeValues: { ':w': keys.pendingWorkIndex, ':by': keys.pendingWorkDueBy(now) },
    Limit: limit,
  });
  return (Items ?? []).map(toWork);
}

/** Ignores a failed condition: the item changed hands (taken, recorded again) or is gone. */
async function unlessChanged(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (isConditionFailed(err)) return false;
    throw err;
  }
}

/**
 * Takes `w` (as listed, due) for `leaseMs`: the claimed work, or undefined when another worker took
 * it first or it is gone.
 */
export async function claimWork(w: Work, leaseMs: number, now = Date.now()): Promise<Work | undefined> {
  const due = now + leaseMs;
  const taken = await unlessChanged(() =>
    updateItem({
      TableName: tableName(),
      Key: keys.pendingWork(w.ws, w.work, w.subject),
      UpdateExpression: 'SET due = :due, gsi1sk = :position',
      ConditionExpression: 'gsi1sk = :seen AND #token = :token',
      ExpressionAttributeNames: { '#token': 'token' },
      ExpressionAttributeValues: { ':due': due, ':position': position(w, due), ':seen': position(w, w.due), ':token': w.token },
    }),
  );
  return taken ? { ...w, due } : undefined;
}

/**
 * Gives claimed (or recorded) work back, due `after` ms from now: 0 hands it to the next sweep.
 * `error`: the chunk failed (counted, and kept for the operator). Nothing happens when the item
 * changed hands meanwhile.
 */
export async function releaseWork(w: Pick<Work, 'ws' | 'work' | 'subject' | 'token' | 'due'>, options: { after?: number; error?: string } = {}): Promise<void> {
  const due = Date.now() + (options.after ?? 0);
  const failed = options.error !== undefined;
  await unlessChanged(() =>
    updateItem({
      TableName: tableName(),
      Key: keys.pendingWork(w.ws, w.work, w.subject),
      UpdateExpression: `SET due = :due, gsi1sk = :position${failed ? ', failures = failures + :one, lastError = :error' : ''}`,
      ConditionExpression: 'gsi1sk = :held AND #token = :token',
      ExpressionAttributeNames: { '#token': 'token' },
      ExpressionAttributeValues: {
        ':due': due,
        ':position': position(w, due),
        ':held': position(w, w.due),
        ':token': w.token,
        ...(failed ? { ':one': 1, ':error': options.error!.slice(0, 1000) } : {}),
      },
    }),
  );
}

/** The work is finished: its item goes, unless the same work was recorded again since (another token). */
export async function workDone(w: Pick<Work, 'ws' | 'work' | 'subject' | 'token'>): Promise<void> {
  await unlessChanged(() =>
    deleteItem({
      TableName: tableName(),
      Key: keys.pendingWork(w.ws, w.work, w.subject),
      ConditionExpression: '#token = :token',
      ExpressionAttributeNames: { '#token': 'token' },
      ExpressionAttributeValues: { ':token': w.token },
    }),
  );
}

/** Time kept in hand at a deadline: no step of a finishing write starts with less left, so its answer is in time. */
export const RESERVE_MS = 250;

/** Throws Unfinished (saying `detail()`) when less than the reserve is left before `until`. */
export function inTime(until: number, detail: () => string): void {
  if (until - Date.now() < RESERVE_MS) throw new Unfinished(detail());
}

/** Contention near the deadline, after a first step, is running out of time too: what was written stands, the rest is pending. */
export async function orUnfinished<T>(work: () => Promise<T>, detail: () => string): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Contention) throw new Unfinished(detail());
    throw err;
  }
}

/** The work an earlier request left (a delete carried on), if it is still there: a request goes on with it. */
export async function earlierWork(ws: string, work: WorkKind, subject: string): Promise<HeldWork | undefined> {
  const token = (await readWork(ws, work, subject))?.token;
  return token ? { ws, work, subject, token, due: 0 } : undefined;
}

/**
 * Runs the rest of a write in the request that made it: `finish`, then the `held` work's item goes.
 * When `finish` fails (out of time, a fault), the work is handed to the sweeper at once before
 * failing. Without `held` (work recorded by an earlier request whose item is gone or unread),
 * `finish` alone.
 */
export async function carryOn(held: HeldWork | undefined, finish: () => Promise<unknown>): Promise<void> {
  if (!held) {
    await finish();
    return;
  }
  try {
    await finish();
  } catch (err) {
    await releaseWork(held).catch(() => undefined);
    throw err;
  }
  await workDone(held);
}

/**
 * Finishes the work an earlier request left on what a write is about to change, before the write
 * reads it, so that changes land in the order they were answered: a team's membership change cut
 * short, then the update that follows it. Work still leased (its request still running, or a
 * sweeper on it), or more than the write's time allows, refuses the write as Contention on
 * `resource`: nothing of the write is done, and what was finished of the earlier work stands. The
 * work is taken until `leaseUntil`, the write's own lease.
 */
export async function finishEarlier(
  earlier: readonly Work[],
  finish: (w: Work) => Promise<unknown>,
  refusal: { label: string; resource: string },
  leaseUntil: number,
): Promise<void> {
  for (const w of earlier) {
    const now = Date.now();
    const claimed = w.due <= now ? await claimWork(w, leaseUntil - now, now) : undefined;
    const retryAfterS = Math.max(1, Math.ceil((w.due - now) / 1000));
    if (!claimed) throw new Contention(refusal.label, refusal.resource, 1, retryAfterS, undefined);
    try {
      await carryOn(claimed, () => finish(claimed));
    } catch (err) {
      if (err instanceof Unfinished || err instanceof Contention) throw new Contention(refusal.label, refusal.resource, 1, 1, err);
      throw err;
    }
  }
}
