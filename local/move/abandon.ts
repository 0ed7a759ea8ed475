// `--abandon` of restore and `import productboard`: the admin's words for lib/store/move/abandon.ts.
import { abandonMove } from '#lib/store/move/abandon.ts';
import { UsageError } from '../admin/command.ts';

export interface AbandonResult {
  id: string;
  name: string;
  abandoned: true;
  /** Items of the unfinished workspace deleted by this command (a continued abandonment counts only its own). */
  deleted: number;
}

/** Abandons the run of `runKey`; `what` names it as the operator gave it ("the restore of export … as …"). */
export async function abandon(runKey: string, what: string): Promise<AbandonResult> {
  const result = await abandonMove(runKey);
  if (result.outcome === 'none') throw new UsageError(`There is no unfinished ${what} to abandon: it was never begun, or it was abandoned already.`);
  if (result.outcome === 'complete')
    throw new UsageError(`The ${what} is complete: workspace ${result.workspaceId} is reachable and in use, and is not abandoned.`);
  return { id: result.workspaceId, name: result.name, abandoned: true, deleted: result.deleted };
}
