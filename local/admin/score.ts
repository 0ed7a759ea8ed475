// `score verify [--workspace W] [--repair]` → {checked, mismatches, repaired} (lib/store/verify.ts).
import { getWorkspace } from '#lib/store/workspaces.ts';
import { verifyScores as verify, type VerifyReport } from '#lib/store/verify.ts';
import { optional, UsageError, type AdminCommand } from './command.ts';

export async function verifyScores(options: { workspace?: string | undefined; repair: boolean }): Promise<VerifyReport> {
  return verify(options);
}

export const scoreCommands: AdminCommand[] = [
  {
    name: 'score verify',
    usage: 'score verify [--workspace W] [--repair]',
    run: async (o) => {
      const workspace = optional(o, 'workspace');
      if (workspace && !(await getWorkspace(workspace))) throw new UsageError(`No workspace ${workspace}`);
      return verifyScores({ workspace, repair: o.repair === true });
    },
  },
];
