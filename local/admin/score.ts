// `score verify [--workspace W] [--repair]` → {checked, mismatches, repaired} (lib/store/verify.ts) on
// stdout; its progress on stderr (./progress.ts).
import { verifyScores } from '#lib/store/verify.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { optional, UsageError, type AdminCommand } from './command.ts';
import { verifyProgress } from './progress.ts';

export { verifyScores };

export const scoreCommands: AdminCommand[] = [
  {
    name: 'score verify',
    usage: 'score verify [--workspace W] [--repair]',
    options: { workspace: 'value', repair: 'flag' },
    run: async (o) => {
      const workspace = optional(o, 'workspace');
      if (workspace && !(await getWorkspace(workspace))) throw new UsageError(`No workspace ${workspace}`);
      const progress = verifyProgress();
      try {
        return await verifyScores({ workspace, repair: o.repair === true, progress: progress.listener });
      } finally {
        progress.done();
      }
    },
  },
];
