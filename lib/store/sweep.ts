// The sweeper: finishes the pending work that writes leave behind (lib/store/work.ts) when their
// request ran out of time, failed or crashed, and the clean-up a subtree delete leaves by design. The
// scheduled worker (functions/work/sweep.ts, a row of lib/workers.ts) and `npm start`'s timer
// (local/workers.ts) run it, at start and then on a schedule; it reads the pending items themselves,
// never the table's stream, so a stream reader that restarted at its latest record or a record past
// its 24 hours loses nothing.
//
// One run takes what is due (its lease over) a page at a time, soonest due first; each item is taken
// with a conditional update (claimWork), so two sweepers never work on the same item at once unless
// one of them outlives its lease, and then the idempotent steps make the second run harmless. An item
// gets at most one chunk of time per take: finished, it goes; out of time or contended, it is handed
// back for the next take; failed, it is tried again later, further off each time, its error kept on it.
import { finishEntityDelete } from './cascade.ts';
import { Contention, Unfinished } from './errors.ts';
import { finishNoteDelete, finishNoteLinks, syncLinkCustomers } from './notes.ts';
import { finishTeamDelete, finishTeamMembers } from './teams.ts';
import { claimWork, dueWork, releaseWork, RESERVE_MS, workDone, workOf, type Work, type WorkKind } from './work.ts';
import { config, LAMBDA_EXTRA_MS } from '../config.ts';
import { log } from '../log.ts';

/** What finishes each kind of work, within `until`: true when it is done. */
const FINISH: Record<WorkKind, (w: Work, until: number) => Promise<boolean>> = {
  deleteEntity: (w, until) => finishEntityDelete(w.ws, w.subject, until),
  deleteNote: (w, until) => finishNoteDelete(w.ws, w.subject, until),
  noteCustomer: (w, until) => syncLinkCustomers(w.ws, w.subject, until),
  noteLinks: (w, until) => finishNoteLinks(w.ws, w.subject, w.links ?? [], until),
  deleteTeam: (w, until) => finishTeamDelete(w.ws, w.subject, until),
  teamMembers: (w, until) => finishTeamMembers(w.ws, w.subject.split(':')[0]!, w.members ?? [], until),
};

/** Items taken per read of what is due. */
const PAGE = 25;

/** How long a failed item waits before it is tried again: doubling from a second, at most five minutes. */
const retryAfterMs = (failures: number) => Math.min(300_000, 1000 * 2 ** Math.min(failures, 9));

export interface SweepReport {
  /** Items finished (their work done, the item gone). */
  finished: number;
  /** Items handed back unfinished: out of their chunk of time, or contended. */
  handedBack: number;
  /** Items whose chunk failed: tried again later. */
  failed: number;
}

/**
 * Finishes what is due until `until` (epoch ms), until nothing is due, or until `signal` aborts
 * (between items). `workspace`: only that workspace's items, read from its partition.
 */
export async function sweep(options: { until: number; workspace?: string | undefined; signal?: AbortSignal }): Promise<SweepReport> {
  const report: SweepReport = { finished: 0, handedBack: 0, failed: 0 };
  const chunkMs = config.sweepChunkMs;
  const seen = new Set<string>();
  while (options.until - Date.now() > RESERVE_MS && !options.signal?.aborted) {
    const now = Date.now();
    const due = options.workspace ? (await workOf(options.workspace)).filter((w) => w.due <= now) : await dueWork(now, PAGE);
    // An item handed back in this run waits for the next one: a run gives each item one chunk.
    const fresh = due.filter((w) => !seen.has(`${w.ws}/${w.work}/${w.subject}`));
    if (fresh.length === 0) break;
    for (const w of fresh) {
      seen.add(`${w.ws}/${w.work}/${w.subject}`);
      if (options.until - Date.now() <= RESERVE_MS || options.signal?.aborted) break;
      const claimed = await claimWork(w, chunkMs + LAMBDA_EXTRA_MS);
      if (!claimed) continue;
      await finishOne(claimed, Math.min(options.until, Date.now() + chunkMs), report);
    }
  }
  return report;
}

async function finishOne(w: Work, until: number, report: SweepReport): Promise<void> {
  const what = { workspaceId: w.ws, work: w.work, subject: w.subject };
  try {
    await FINISH[w.work](w, until);
    await workDone(w);
    report.finished++;
    log.info('pending work finished', what);
  } catch (err) {
    if (err instanceof Unfinished || err instanceof Contention) {
      await releaseWork(w);
      report.handedBack++;
      return;
    }
    report.failed++;
    log.error('pending work failed; will try again', { ...what, failures: w.failures + 1, error: err });
    await releaseWork(w, { after: retryAfterMs(w.failures), error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  }
}
