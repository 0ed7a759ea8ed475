// `admin export --workspace W --out F`: the workspace as an export file (docs/export-format.md),
// streamed kind by kind from the table (lib/store/move/export.ts), the end record counting each kind.
// Each record is held, as it is written, to the rules restore holds the file to
// (lib/domain/export-file-check.ts), and each webhook's receiver to restore's rule (./receivers.ts):
// a file restore would refuse is never put in place. The kinds are
// read one after another while the workspace stays open to writes, so a record written meanwhile can
// name one of a kind already read (a member added, then made an entity's owner): such an export is
// begun again, up to EXPORT_ATTEMPTS times, and then refused, naming the line (and, when every attempt
// met the same problem, saying that the workspace itself holds it).
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { ExportFileCheck, type FileProblem } from '#lib/domain/export-file-check.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, MOVE_KINDS, type ExportHeader } from '#lib/domain/schemas/workspace-export.ts';
import { exportRecords } from '#lib/store/move/export.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { writeJsonLines } from './export-file.ts';
import { receiverProblem } from './receivers.ts';
import { UsageError } from '../admin/command.ts';
import type { PhaseProgress } from '../admin/progress.ts';

export const EXPORT_ATTEMPTS = 3;

interface Exported {
  workspace: string;
  out: string;
  exportId: string;
  counts: Record<string, number>;
  bytes: number;
  /** How many times the export began: more than 1 when the workspace changed under an earlier one. */
  attempts: number;
}

/** An export whose records do not hold together as restore requires. */
class Inconsistent extends Error {
  constructor(readonly problem: FileProblem) {
    super(`line ${problem.line}: ${problem.problem}`);
    this.name = 'Inconsistent';
  }
}

export async function exportWorkspace(ws: string, out: string, progress?: PhaseProgress): Promise<Exported> {
  const workspace = await getWorkspace(ws);
  if (!workspace) throw new UsageError(`No workspace ${ws}`);
  const seen = new Set<string>();
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await exportOnce(workspace, out, progress)), attempts: attempt };
    } catch (err) {
      if (!(err instanceof Inconsistent)) throw err;
      seen.add(err.message);
      if (attempt < EXPORT_ATTEMPTS) continue;
      await rm(`${out}.partial`, { force: true });
      const problem = `line ${err.problem.line}: ${err.problem.problem.replace(/\.$/, '')}`;
      // The same problem every time is the workspace's own, not a write that landed between two reads.
      throw new UsageError(
        seen.size === 1
          ? `The export of workspace ${ws} would not restore, the same way ${EXPORT_ATTEMPTS} times: ${problem}. The workspace holds a record that breaks a rule restore holds a file to (one written before the rule, or under another setting of it): change it through the API, then export again. Nothing was written to ${out}.`
          : `The export of workspace ${ws} did not hold together ${EXPORT_ATTEMPTS} times in a row, so restore would refuse it; the last time at ${problem}. Records written while an export reads the workspace can cause this: export it again when fewer are. Nothing was written to ${out}.`,
      );
    }
  }
}

async function exportOnce(workspace: ExportHeader['workspace'], out: string, progress?: PhaseProgress): Promise<Omit<Exported, 'attempts'>> {
  const header: ExportHeader = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportId: randomUUID(), exportedAt: new Date().toISOString(), workspace };
  const counts: Record<string, number> = Object.fromEntries(MOVE_KINDS.map((k) => [k, 0]));
  const check = new ExportFileCheck(header.exportedAt);
  const receivers: Array<{ line: number; url: string }> = [];
  async function* lines() {
    yield header;
    let kind = '';
    let line = 1;
    for await (const record of exportRecords(workspace.id, MOVE_KINDS)) {
      if (record.kind !== kind) {
        kind = record.kind;
        progress?.phase(`${kind} records`, { unit: 'records' });
      }
      counts[record.kind]!++;
      check.add(record, ++line);
      if (record.kind === 'webhook') receivers.push({ line, url: record.url });
      progress?.update(counts[record.kind]!);
      yield record;
    }
    progress?.end();
    yield { kind: 'end', counts };
    // Before the file is put in place: the writer asks for a next line once the last is out.
    const problem = check.result();
    if (problem) throw new Inconsistent(problem);
    for (const r of receivers) {
      const refused = await receiverProblem(r.url);
      if (refused) throw new Inconsistent({ line: r.line, problem: refused });
    }
  }
  const bytes = await writeJsonLines(out, lines());
  return { workspace: workspace.id, out, exportId: header.exportId, counts, bytes };
}
