// `admin restore --in F [--name N] [--admin-email E]`: a new workspace from an export file
// (docs/export-format.md). The whole file is checked first (each line's shape, then what the file as
// a whole must hold: lib/domain/export-file-check.ts), so a bad file is refused with nothing written.
// Records are written raw in batches (lib/store/move/load.ts) with ids mapped
// as docs/export-format.md says, a checkpoint after each few thousand lines, then the aggregates in one
// pass (lib/store/move/aggregates-fresh.ts); the scores it computed are compared with those the
// export read. Killed anywhere, the same command continues: the run is found by the export's id and
// the name (lib/store/move/runs.ts), and continues only with the file it began with (its SHA-256).
import { randomUUID } from 'node:crypto';
import { ensureSigningKey } from '#lib/auth/service-jwt-signing.ts';
import { serviceSecret } from '#lib/auth/service-secret.ts';
import { ExportFileCheck } from '#lib/domain/export-file-check.ts';
import { MOVE_KINDS, type ExportHeader, type MoveKind } from '#lib/domain/schemas/workspace-export.ts';
import { sealContext } from '#lib/events/deliver.ts';
import { seal, webhookSecretKey } from '#lib/events/secret-box.ts';
import { newSigningSecret } from '#lib/events/signature.ts';
import { aggregateLoadedWorkspace } from '#lib/store/move/aggregates-fresh.ts';
import { idMapping } from '#lib/store/move/ids.ts';
import { BulkWriter } from '#lib/store/move/load.ts';
import { entityTotals } from '#lib/store/move/present.ts';
import { beginRun, runKeyOf, saveProgress } from '#lib/store/move/runs.ts';
import { abandon, type AbandonResult } from './abandon.ts';
import { commitWorkspace, type Committed } from './commit.ts';
import { parseHeader, parseRecord, readJsonLines } from './export-file.ts';
import { receiverProblem } from './receivers.ts';
import { checkedName, UsageError } from '../admin/command.ts';
import type { PhaseProgress } from '../admin/progress.ts';

/** Lines between checkpoints: what a killed restore writes again. */
const CHECKPOINT_LINES = 2_000;

interface Checkpoint {
  /** Every record up to this line is written. */
  line: number;
}

interface RestoreResult extends Committed {
  resumed: boolean;
  counts: Record<string, number>;
  /** Scores computed here against those the export read. */
  scores: { checked: number; mismatches: number };
}

/** The key restores of one export into one name share: the same command finds its run again. */
const restoreKey = (exportId: string, name: string) => runKeyOf('restore', exportId, name);

/**
 * Every line of the file checked, before anything is written: a bad file is refused with its first
 * bad line. Answers its header, the SHA-256 of the bytes it checked and how many webhooks it holds.
 */
async function checkFile(file: string, progress: PhaseProgress | undefined): Promise<{ header: ExportHeader; digest: string; webhooks: number }> {
  const input = readJsonLines(file);
  let check: ExportFileCheck | undefined;
  const receivers: Array<{ n: number; url: string }> = [];
  const counts: Partial<Record<MoveKind, number>> = {};
  let header: ExportHeader | undefined;
  let ended = false;
  for await (const line of input.lines) {
    if (!header) {
      header = parseHeader(file, line);
      check = new ExportFileCheck(header.exportedAt);
      continue;
    }
    if (ended) throw new UsageError(`${file} line ${line.n}: a record after the end record`);
    const record = parseRecord(file, line);
    if (record.kind === 'end') {
      ended = true;
      for (const kind of MOVE_KINDS) {
        if ((record.counts[kind] ?? 0) !== (counts[kind] ?? 0))
          throw new UsageError(`${file}: the end record counts ${record.counts[kind] ?? 0} ${kind} records, the file holds ${counts[kind] ?? 0}`);
      }
      continue;
    }
    if (record.kind === 'webhook') receivers.push({ n: line.n, url: record.url });
    check!.add(record, line.n);
    counts[record.kind] = (counts[record.kind] ?? 0) + 1;
    progress?.update(line.n);
  }
  if (!header) return { header: parseHeader(file, undefined), digest: '', webhooks: 0 };
  if (!ended) throw new UsageError(`${file} has no end record: it is truncated (an export that did not finish?)`);
  const problem = check!.result();
  if (problem) throw new UsageError(`${file} line ${problem.line}: ${problem.problem.replace(/\.$/, '')}. Nothing was restored.`);
  for (const { n, url } of receivers) {
    const problem = await receiverProblem(url);
    if (problem) throw new UsageError(`${file} line ${n}: ${problem}. Nothing was restored.`);
  }
  return { header, digest: input.digest(), webhooks: counts.webhook ?? 0 };
}

/**
 * Abandons the unfinished restore of the file's export as `name` (by default the name in its header):
 * what it wrote is deleted, and the same command without --abandon begins again. Only the header is
 * read: the restore is named by the export's id and the name, as when it began.
 */
export async function abandonRestore(file: string, options: { name?: string | undefined }): Promise<AbandonResult> {
  const input = readJsonLines(file);
  const first = await input.lines.next();
  await input.lines.return(undefined);
  const header = parseHeader(file, first.done ? undefined : first.value);
  const name = options.name ?? header.workspace.name;
  checkedName('name', name);
  return abandon(restoreKey(header.exportId, name), `restore of export ${header.exportId} as "${name}"`);
}

export async function restoreWorkspace(
  file: string,
  options: { name?: string | undefined; adminEmail?: string | undefined; progress?: PhaseProgress },
): Promise<RestoreResult> {
  const progress = options.progress;
  progress?.phase('file checked', { unit: 'lines' });
  const { header, digest, webhooks } = await checkFile(file, progress);
  // The restore ends by issuing its admin a token: a key that cannot sign is refused before anything is written.
  await ensureSigningKey();
  // Each restored webhook gets a new signing secret, sealed with the service secret: read (and
  // refused when it cannot be) before anything is written, and only when the file holds a webhook.
  const secretKey = webhooks > 0 ? webhookSecretKey(await serviceSecret()) : undefined;
  const name = options.name ?? header.workspace.name;
  checkedName('name', name);
  const { run, resumed } = await beginRun<Checkpoint>({
    runKey: restoreKey(header.exportId, name),
    command: 'restore',
    workspaceId: randomUUID(),
    name,
    digest,
    checkpoint: { line: 1 },
  });
  // The run is found by the export's id and the name: another file with that id is not what it wrote.
  if (resumed && run.digest !== digest)
    throw new UsageError(
      `${file} is not the file the restore of export ${header.exportId} as "${name}" began with (its SHA-256 differs): run it with that file to continue, or with another --name to restore this one as a new workspace`,
    );
  const ws = run.workspaceId;
  const quiet = `restore:${run.runKey.slice(0, 16)}`;
  const id = idMapping(ws, `export:${header.workspace.id}`);
  const writer = new BulkWriter({
    ws,
    id,
    quiet,
    sealedSecret: (webhookId) => seal(secretKey!, newSigningSecret(), sealContext(webhookId, 'signingSecret')),
  });

  if (run.state === 'loading') {
    const input = readJsonLines(file);
    const size = await input.size;
    const counts: Record<string, number> = { ...run.counts };
    let saved = run.checkpoint.line;
    progress?.phase('records', { total: size, unit: 'bytes' });
    // The file was checked whole (checkFile): here each record is only written.
    for await (const line of input.lines) {
      if (line.n <= saved) continue;
      const record = parseRecord(file, line);
      if (record.kind === 'end') break;
      await writer.add(record);
      counts[record.kind] = (counts[record.kind] ?? 0) + 1;
      if (line.n - saved >= CHECKPOINT_LINES) {
        await writer.flush();
        saved = line.n;
        await saveProgress(run, { checkpoint: { line: saved }, counts });
        progress?.update(input.bytesRead());
      }
    }
    await input.lines.return(undefined);
    await writer.flush();
    await saveProgress(run, { state: 'aggregating', checkpoint: { line: Number.MAX_SAFE_INTEGER }, counts });
    progress?.update(size);
  }
  if (run.state === 'aggregating') {
    progress?.phase('aggregates', { unit: 'entities' });
    await aggregateLoadedWorkspace(ws, { quiet, progress: (p) => progress?.update(p.entities, p.of) });
  }
  progress?.phase('scores compared', { total: run.counts.entity ?? 0, unit: 'entities' });
  const scores = await compareScores(file, ws, id, progress);
  progress?.end();
  const committed = await commitWorkspace(run, { adminEmail: options.adminEmail, quiet, webhooks: run.counts.webhook ?? 0 });
  return { ...committed, resumed, counts: Object.fromEntries(MOVE_KINDS.map((k: MoveKind) => [k, run.counts[k] ?? 0])), scores };
}

/** Each restored hierarchy entity's score against the score its record says the export read. */
async function compareScores(
  file: string,
  ws: string,
  id: (sourceId: string) => string,
  progress?: PhaseProgress,
): Promise<{ checked: number; mismatches: number }> {
  const result = { checked: 0, mismatches: 0 };
  let batch: Array<{ id: string; score: number }> = [];
  let seen = 0;
  const check = async () => {
    const totals = await entityTotals(
      ws,
      batch.map((b) => b.id),
    );
    for (const b of batch) {
      result.checked++;
      if ((totals.get(b.id) ?? -1) !== b.score) result.mismatches++;
    }
    batch = [];
  };
  const input = readJsonLines(file);
  for await (const line of input.lines) {
    const kind = (line.value as { kind?: unknown }).kind;
    // Records are grouped by kind: the entities come after the kinds before them, and nothing of theirs after.
    if (line.n === 1 || MOVE_KINDS.indexOf(kind as MoveKind) < MOVE_KINDS.indexOf('entity')) continue;
    if (kind !== 'entity') break;
    const record = parseRecord(file, line);
    seen++;
    if (record.kind === 'entity' && record.score !== undefined) batch.push({ id: id(record.id), score: record.score });
    if (batch.length === 100) await check();
    progress?.update(seen);
  }
  await input.lines.return(undefined);
  if (batch.length) await check();
  return result;
}
