// `admin export --workspace W --out F`: the workspace as an export file (docs/export-format.md),
// streamed kind by kind from the table (lib/store/move/export.ts), the end record counting each kind.
import { randomUUID } from 'node:crypto';
import { EXPORT_FORMAT, EXPORT_VERSION, MOVE_KINDS, type ExportHeader } from '#lib/domain/schemas/workspace-export.ts';
import { exportRecords } from '#lib/store/move/export.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { writeJsonLines } from './export-file.ts';
import { UsageError } from '../admin/command.ts';
import type { PhaseProgress } from '../admin/progress.ts';

export async function exportWorkspace(
  ws: string,
  out: string,
  progress?: PhaseProgress,
): Promise<{ workspace: string; out: string; exportId: string; counts: Record<string, number>; bytes: number }> {
  const workspace = await getWorkspace(ws);
  if (!workspace) throw new UsageError(`No workspace ${ws}`);
  const header: ExportHeader = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportId: randomUUID(), exportedAt: new Date().toISOString(), workspace };
  const counts: Record<string, number> = Object.fromEntries(MOVE_KINDS.map((k) => [k, 0]));
  async function* lines() {
    yield header;
    let kind = '';
    for await (const record of exportRecords(ws, MOVE_KINDS)) {
      if (record.kind !== kind) {
        kind = record.kind;
        progress?.phase(`${kind} records`, { unit: 'records' });
      }
      counts[record.kind]!++;
      progress?.update(counts[record.kind]!);
      yield record;
    }
    progress?.end();
    yield { kind: 'end', counts };
  }
  const bytes = await writeJsonLines(out, lines());
  return { workspace: ws, out, exportId: header.exportId, counts, bytes };
}
