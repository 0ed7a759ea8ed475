// The scheduled sweeper: an EventBridge rule invokes it every few minutes (lib/workers.ts,
// infra/event-workers.ts), and it finishes the pending work that is due (lib/store/sweep.ts) until
// its own time is nearly spent; what it leaves is the next run's.
import type { Context } from 'aws-lambda';
import { log } from '#lib/log.ts';
import { sweep } from '#lib/store/sweep.ts';

/** Time kept back from the invocation's own timeout: the run ends its last step before Lambda stops it. */
const MARGIN_MS = 5_000;

export const handler = async (_event: unknown, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> => {
  const report = await sweep({ until: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS });
  if (report.finished + report.handedBack + report.failed > 0) log.info('sweep done', { ...report });
};
