// `index backfill [--workspace W]` → {checked, written} (lib/store/backfill.ts): index entries for
// items written before the index existed (after a deploy that adds one, or an old local table).
import { backfillIndexes } from '#lib/store/backfill.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { optional, UsageError, type AdminCommand } from './command.ts';

export const indexCommands: AdminCommand[] = [
  {
    name: 'index backfill',
    usage: 'index backfill [--workspace W]',
    options: { workspace: 'value' },
    run: async (o) => {
      const workspace = optional(o, 'workspace');
      if (workspace && !(await getWorkspace(workspace))) throw new UsageError(`No workspace ${workspace}`);
      return backfillIndexes({ workspace });
    },
  },
];
