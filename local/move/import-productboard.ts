// `admin import productboard --source {base_url} --source-token-file F [--name N] [--admin-email E]`:
// a new workspace holding what a Productboard v2 API shows (./productboard-kinds.ts says what, kind by
// kind), each record held to the rules restore holds an export file to (./admission.ts: what breaks
// one is left out and counted, so the workspace, exported, restores), written raw in batches with ids
// UUIDv5(workspace, base URL, source id), each written page a checkpoint, the aggregates in one pass
// at the end, and the workspace reachable only once all of it is in (./commit.ts). A record the source
// lists again (one id on two pages) is left out, the first kept, and counted. Killed anywhere, the
// same command (same source, token and name) continues from its last checkpoint, and ends with what
// one uninterrupted run gives, counts and skipped included.
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ensureSigningKey } from '#lib/auth/service-jwt-signing.ts';
import type { MoveRecord } from '#lib/domain/schemas/workspace-export.ts';
import { aggregateLoadedWorkspace } from '#lib/store/move/aggregates-fresh.ts';
import { idMapping } from '#lib/store/move/ids.ts';
import { BulkWriter } from '#lib/store/move/load.ts';
import { presentIds, type LoadedEntity } from '#lib/store/move/present.ts';
import { beginRun, runKeyOf, saveProgress } from '#lib/store/move/runs.ts';
import { abandon, type AbandonResult } from './abandon.ts';
import { Admission } from './admission.ts';
import { commitWorkspace, type Committed } from './commit.ts';
import { orphansOf, reasonsOf, removedBy } from './orphans.ts';
import { readCustomFields, readTagValues, SOURCE_KINDS, sourceRecordOf, type ReadContext, type SourceKind } from './productboard-kinds.ts';
import { SourceClient, SourceError, type SourceStats } from './source-client.ts';
import { checkedName, UsageError } from '../admin/command.ts';
import type { PhaseProgress } from '../admin/progress.ts';

/** The kinds read, in order: what a record refers to is read before it. */
export const PHASES = ['team', 'member', 'customField', 'tagValue', 'entity', 'note'] as const;
type Phase = (typeof PHASES)[number];
/** The kinds read a page at a time, each page a checkpoint. */
type Listed = 'entity' | 'note';
/** Each kind's records, as a reason counts them. */
const PLURAL: Record<Phase, string> = {
  team: 'teams',
  member: 'members',
  customField: 'custom fields',
  tagValue: 'tag values',
  entity: 'entities',
  note: 'notes',
};
/**
 * The kinds the others refer to: read whole on every run, so that a run resuming past them knows which
 * of them were let in (./admission.ts); written, and what they leave out counted, in their own phase only.
 */
const REFERRED: ReadonlySet<string> = new Set(['team', 'member', 'customField', 'tagValue']);

interface Checkpoint {
  /** Index in PHASES of the phase under way. */
  phase: number;
  /** The next page of that phase's list (undefined: from its start). */
  next?: string;
  /** Whether the orphans' report is in the run's counts (./orphans.ts): a run resumed after it drops them again without counting. */
  orphansCounted?: boolean;
  /** The run's counts and skipped when the phase's list began: a list read again from its start is counted from them. */
  base?: Tally;
  /**
   * The ids (as written) of the records the page at `next` lets in, saved before they are written: a run
   * resumed after a kill in that write tells them from those the pages before let in (a repeat of one of those is left out).
   */
  adding?: string[];
  /**
   * The list is being read again from its start (the source refused the cursor saved), and the table
   * holds what the earlier reading wrote: it tells nothing of which pages were read, so a run resumed
   * then reads the list from its start once more.
   */
  restarted?: boolean;
}

interface Tally {
  counts: Record<string, number>;
  skipped: Record<string, number>;
}

export interface ImportResult extends Committed {
  resumed: boolean;
  counts: Record<string, number>;
  /** What was not imported (or imported with a default), by reason. */
  skipped: Record<string, number>;
  source: SourceStats & { seconds: number; requestsPerSecond: number };
}

/** Refuses, before anything is written, a token that cannot read what the import needs, names and e-mails included. */
async function checkSource(client: SourceClient): Promise<void> {
  // Each list's records must read in clear; the configurations hold no record, only the fields'
  // schemas, which may name `[redacted]` as a value a reader without the scope sees.
  const probes = [
    ['/members?includeDisabled=true', 'records'],
    ['/teams', 'records'],
    ['/entities/configurations', 'schemas'],
    ['/entities?type[]=user', 'records'],
    ['/notes', 'records'],
  ] as const;
  for (const [path, holds] of probes) {
    let page: unknown;
    try {
      page = await client.get(path);
    } catch (err) {
      if (err instanceof SourceError && (err.status === 401 || err.status === 403)) {
        throw new UsageError(
          `The source refused its token (${err.status}) on GET ${path}: the import needs the scopes entities:read, notes:read, members:read, members:pii:read, users:pii:read and teams:read. ${err.message}`,
        );
      }
      throw err instanceof SourceError ? new UsageError(err.message) : err;
    }
    if (holds === 'records' && JSON.stringify(page).includes('"[redacted]"')) {
      throw new UsageError(
        `The source answers [redacted] for names or e-mails on GET ${path}: its token lacks members:pii:read${path.includes('user') ? ' (or users:pii:read)' : ''}. Nothing was imported; give a token with that scope.`,
      );
    }
  }
}

/** What names an import: the source, its token and the name of the workspace it makes. */
interface ImportNaming {
  source: string;
  tokenFile: string;
  name?: string | undefined;
}

/** The import's source, token and name, checked; its run's key (a token is kept only as its hash: it names the source workspace). */
async function importNamed(options: ImportNaming): Promise<{ baseUrl: string; token: string; name: string; runKey: string }> {
  let baseUrl: string;
  try {
    const u = new URL(options.source);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    baseUrl = u.toString().replace(/\/+$/, '');
  } catch {
    throw new UsageError(`--source ${options.source} is not an http(s) URL (the source's {base_url}, e.g. https://api.productboard.com/v2)`);
  }
  let token: string;
  try {
    token = (await readFile(options.tokenFile, 'utf8')).trim();
  } catch (err) {
    throw new UsageError(`Cannot read --source-token-file ${options.tokenFile}: ${(err as Error).message}`);
  }
  if (!token) throw new UsageError(`--source-token-file ${options.tokenFile} is empty`);
  const name = options.name ?? `Imported from ${new URL(baseUrl).host}`;
  checkedName('name', name);
  const tokenHash = createHash('sha256').update(token).digest('hex');
  return { baseUrl, token, name, runKey: runKeyOf('import productboard', baseUrl, tokenHash, name) };
}

/** Abandons the unfinished import the same options began: what it wrote is deleted (the source is not asked). */
export async function abandonImport(options: ImportNaming): Promise<AbandonResult> {
  const { baseUrl, name, runKey } = await importNamed(options);
  return abandon(runKey, `import from ${baseUrl} as "${name}"`);
}

export async function importProductboard(
  options: ImportNaming & {
    adminEmail?: string | undefined;
    progress?: PhaseProgress;
    fetchFn?: typeof fetch;
  },
): Promise<ImportResult> {
  const { baseUrl, token, name, runKey } = await importNamed(options);
  // The import ends by issuing its admin a token: a key that cannot sign is refused before anything is read or written.
  await ensureSigningKey();
  const client = new SourceClient(baseUrl, token, options.fetchFn);
  const started = Date.now();
  await checkSource(client);

  const { run, resumed } = await beginRun<Checkpoint>({
    runKey,
    command: 'import productboard',
    workspaceId: randomUUID(),
    name,
    checkpoint: { phase: 0 },
  });
  const ws = run.workspaceId;
  const quiet = `import:${run.runKey.slice(0, 16)}`;
  const writer = new BulkWriter({ ws, id: idMapping(ws, baseUrl), quiet, sealedSecret: () => '' });
  const counts: Record<string, number> = { ...run.counts };
  const skipped: Record<string, number> = { ...run.skipped };
  let muted = false;
  const skip = (reason: string, n = 1) => {
    if (!muted) skipped[reason] = (skipped[reason] ?? 0) + n;
  };
  const admission = new Admission(skip);
  // The imported entities (mapped id → type), read from the table when the notes' phase begins.
  let entities = new Map<string, LoadedEntity>();
  const ctx: ReadContext = {
    client,
    imported: admission,
    importedAt: run.startedAt,
    customFields: new Map(),
    entityType: (sourceId) => entities.get(writer.ctx.id(sourceId))?.type,
    skip,
  };
  const count = (kind: string, n = 1) => (counts[kind] = (counts[kind] ?? 0) + n);
  /** Sets counts and skipped back to `to` (in place: they are the objects each checkpoint saves). */
  const resetTally = (to: Tally) => {
    for (const [mine, theirs] of [
      [counts, to.counts],
      [skipped, to.skipped],
    ] as const) {
      for (const k of Object.keys(mine)) delete mine[k];
      Object.assign(mine, theirs);
    }
  };
  /** By kind, the ids (as written) of the records let in: one the source lists again is left out, the first kept. */
  const letIn = new Map<Phase, Set<string>>(PHASES.map((k) => [k, new Set()]));
  /** Whether a record of `kind` with this source id was let in before: the copy is left out, and counted. */
  const repeated = (kind: Phase, sourceId: string): boolean => {
    if (!letIn.get(kind)!.has(writer.ctx.id(sourceId))) return false;
    skip(`${PLURAL[kind]} the source listed more than once (the first kept)`);
    return true;
  };
  /** The record as it may be written (./admission.ts), its id noted; undefined when it is left out. */
  const admit = (record: MoveRecord): MoveRecord | undefined => {
    const admitted = admission.admit(record);
    if (admitted && 'id' in admitted && letIn.has(admitted.kind as Phase)) letIn.get(admitted.kind as Phase)!.add(writer.ctx.id(admitted.id));
    return admitted;
  };
  /** The records one list item makes, those let in: none when it is no record, has no id or repeats one let in (each counted). */
  const recordsOf = async (kind: Phase, item: unknown): Promise<MoveRecord[]> => {
    const record = sourceRecordOf(item, PLURAL[kind], ctx);
    if (!record || repeated(kind, record.id)) return [];
    return (await (SOURCE_KINDS[kind] as SourceKind).records(record, ctx)).flatMap((r) => admit(r) ?? []);
  };
  /** The records of a kind the others refer to, read whole: those let in. */
  const readWhole = async (kind: Phase): Promise<MoveRecord[]> => {
    letIn.set(kind, new Set());
    // A custom field given twice is left out where the configurations are read (its values are read by the first).
    if (kind === 'customField') return (await readCustomFields(ctx)).flatMap((r) => admit(r) ?? []);
    if (kind === 'tagValue') return (await readTagValues(ctx)).flatMap((r) => (repeated(kind, r.id) ? [] : (admit(r) ?? [])));
    const read: MoveRecord[] = [];
    for await (const page of client.pages((SOURCE_KINDS[kind] as SourceKind).list)) for (const item of page.data) read.push(...(await recordsOf(kind, item)));
    return read;
  };
  /** The list of `kind` read from where the run stands, each page written, then a checkpoint. */
  const readList = async (phase: number, kind: Listed): Promise<void> => {
    const source = SOURCE_KINDS[kind] as SourceKind;
    const resumedHere = run.checkpoint.phase === phase ? run.checkpoint : undefined;
    const orphansCounted = run.checkpoint.orphansCounted ? { orphansCounted: true } : {};
    const base: Tally = resumedHere?.base ?? { counts: { ...counts }, skipped: { ...skipped } };
    let restarted = resumedHere?.restarted === true;
    let from = restarted ? undefined : resumedHere?.next;
    if (restarted) resetTally(base);
    else if (resumedHere) {
      // What the pages read before let in: what is written, but what the page under way lets in.
      const adding = new Set(resumedHere.adding ?? []);
      letIn.set(kind, new Set([...(await presentIds(ws, kind))].filter((id) => !adding.has(id))));
    }
    for (let pages = 0; ;) {
      try {
        let at = from;
        for await (const page of client.pages(from ?? source.list)) {
          pages++;
          const here: Checkpoint = { phase, ...orphansCounted, base, ...(restarted ? { restarted } : {}) };
          const records: MoveRecord[] = [];
          for (const item of page.data) records.push(...(await recordsOf(kind, item)));
          const adding = records.flatMap((r) => ('id' in r && r.kind === kind ? [writer.ctx.id(r.id)] : []));
          if (adding.length) await saveProgress(run, { checkpoint: { ...here, ...(at ? { next: at } : {}), adding } });
          for (const record of records) {
            await writer.add(record);
            count(record.kind);
            if (record.kind === 'note') count('link', record.links.length);
          }
          await writer.flush();
          await saveProgress(run, { checkpoint: page.next ? { ...here, next: page.next } : { phase: phase + 1 }, counts, skipped });
          options.progress?.update(counts[kind] ?? 0);
          at = page.next;
        }
        return;
      } catch (err) {
        if (!(err instanceof SourceError) || err.status !== 400 || pages > 0 || from === undefined)
          throw err instanceof SourceError ? new UsageError(err.message) : err;
        // A cursor saved by an earlier run that the source no longer takes: the list read again from its start, counted from there.
        [from, restarted] = [undefined, true];
        resetTally(base);
        letIn.set(kind, new Set());
      }
    }
  };

  if (run.state === 'loading') {
    for (let phase = 0; phase < PHASES.length; phase++) {
      const kind = PHASES[phase]!;
      const done = phase < run.checkpoint.phase;
      if (REFERRED.has(kind)) {
        muted = done;
        if (!done) options.progress?.phase(`${kind} records`, { unit: 'records' });
        let records: MoveRecord[];
        try {
          records = await readWhole(kind);
        } catch (err) {
          throw err instanceof SourceError ? new UsageError(err.message) : err;
        }
        muted = false;
        if (done) continue;
        for (const r of records) await writer.add(r);
        count(kind, records.length);
        await writer.flush();
        await saveProgress(run, { checkpoint: { phase: phase + 1 }, counts, skipped });
        options.progress?.update(records.length);
        continue;
      }
      if (done) continue;
      options.progress?.phase(`${kind} records`, { unit: 'records' });
      if (kind === 'note') {
        // Every entity is in: what refers to one that is not leaves before the notes can link to it.
        const orphans = await orphansOf(ws);
        if (!run.checkpoint.orphansCounted) {
          for (const [reason, n] of reasonsOf(orphans.report)) skip(reason, n);
          for (const [k, n] of Object.entries(removedBy(orphans.report))) if (n) count(k, -n);
          await saveProgress(run, { checkpoint: { ...run.checkpoint, orphansCounted: true }, counts, skipped });
        }
        await orphans.drop();
        entities = orphans.kept;
      }
      await readList(phase, kind as Listed);
    }
    await saveProgress(run, { state: 'aggregating', checkpoint: { phase: PHASES.length }, counts, skipped });
  }
  if (run.state === 'aggregating') {
    options.progress?.phase('aggregates', { unit: 'entities' });
    await aggregateLoadedWorkspace(ws, { quiet, progress: (p) => options.progress?.update(p.entities, p.of) });
  }
  options.progress?.end();
  const committed = await commitWorkspace(run, { adminEmail: options.adminEmail, quiet, webhooks: 0 });
  const seconds = (Date.now() - started) / 1000;
  const records = Object.fromEntries(['team', 'member', 'customField', 'tagValue', 'entity', 'relation', 'note'].map((k) => [k, run.counts[k] ?? 0]));
  return {
    ...committed,
    resumed,
    counts: records,
    skipped: run.skipped,
    source: { ...client.stats, seconds, requestsPerSecond: Math.round((client.stats.requests / Math.max(seconds, 0.001)) * 10) / 10 },
  };
}
