// Moving workspaces in and out (README, "Admin CLI"; docs/export-format.md): export, restore, and the
// imports. Results on stdout, progress on stderr (./progress.ts).
import { optional, repeated, required, UsageError, type AdminCommand } from './command.ts';
import { phaseProgress } from './progress.ts';
import { exportWorkspace } from '../move/export.ts';
import { importNotes, NOTE_COLUMNS } from '../move/import-notes.ts';
import { abandonImport, importProductboard } from '../move/import-productboard.ts';
import { abandonRestore, restoreWorkspace } from '../move/restore.ts';

export const moveCommands: AdminCommand[] = [
  {
    name: 'export',
    usage: 'export --workspace W --out F   (gzip-compressed JSON lines, docs/export-format.md; created with mode 0600)',
    options: { workspace: 'value', out: 'value' },
    run: (o) => exportWorkspace(required(o, 'workspace'), required(o, 'out'), phaseProgress('export')),
  },
  {
    name: 'restore',
    usage:
      'restore --in F [--name N] [--admin-email E] [--abandon]   (a new workspace; the same command continues a restore that stopped, or with --abandon deletes what it wrote)',
    options: { in: 'value', name: 'value', 'admin-email': 'value', abandon: 'flag' },
    run: (o) => {
      if (o.abandon !== true)
        return restoreWorkspace(required(o, 'in'), { name: optional(o, 'name'), adminEmail: optional(o, 'admin-email'), progress: phaseProgress('restore') });
      if (o['admin-email'] !== undefined) throw new UsageError('--admin-email is not taken with --abandon');
      return abandonRestore(required(o, 'in'), { name: optional(o, 'name') });
    },
  },
  {
    name: 'import productboard',
    usage:
      'import productboard --source BASE_URL --source-token-file F [--name N] [--admin-email E] [--abandon]   (a new workspace; the same command continues an import that stopped, or with --abandon deletes what it wrote)',
    options: { source: 'value', 'source-token-file': 'value', name: 'value', 'admin-email': 'value', abandon: 'flag' },
    run: (o) => {
      const naming = { source: required(o, 'source'), tokenFile: required(o, 'source-token-file'), name: optional(o, 'name') };
      if (o.abandon !== true) return importProductboard({ ...naming, adminEmail: optional(o, 'admin-email'), progress: phaseProgress('import productboard') });
      if (o['admin-email'] !== undefined) throw new UsageError('--admin-email is not taken with --abandon');
      return abandonImport(naming);
    },
  },
  {
    name: 'import notes',
    usage: `import notes --workspace W --in F.csv|F.jsonl --map field=COLUMN ... [--create-customers] [--dry-run]   (fields: ${NOTE_COLUMNS.join(', ')})`,
    options: { workspace: 'value', in: 'value', map: 'values', 'create-customers': 'flag', 'dry-run': 'flag' },
    run: (o) =>
      importNotes({
        workspace: required(o, 'workspace'),
        file: required(o, 'in'),
        map: repeated(o, 'map'),
        createCustomers: o['create-customers'] === true,
        dryRun: o['dry-run'] === true,
        progress: phaseProgress('import notes'),
      }),
  },
];
