// `admin import notes --workspace W --in F.csv|F.jsonl --map field=column ... [--create-customers] [--dry-run]`:
// feedback from a file into a workspace in use. Every row is checked first (a name; a customer found
// by e-mail or company domain — created when missing if asked; links by entity id or by a name path
// such as `Checkout > Apple Pay`, where a path matching several entities is a bad row; an importance;
// a date; every value held to what the API would store); one bad row and nothing is written, each
// bad row reported with its line. Then the new customers and the notes go in raw, in batches
// (deterministic ids: the run — the file's hash, the mapping, --create-customers — and the row's
// line), and the links with their aggregates (lib/store/move/live-links.ts). Killed anywhere, the
// same command continues; a file imported twice changes nothing the second time, and the same file
// with another mapping is another import, whose notes are its own.
import { createHash } from 'node:crypto';
import { counted } from '#lib/domain/counted.ts';
import { NotFound } from '#lib/domain/errors.ts';
import { standardFieldProblem } from '#lib/domain/export-file-check.ts';
import { isHierarchyType, type HierarchyType } from '#lib/domain/hierarchy.ts';
import { UUID_PATTERN } from '#lib/domain/schemas/common.ts';
import { IMPORTANCES, type Importance } from '#lib/domain/score.ts';
import { MAX_NOTES_PER_RATING } from '#lib/store/aggregates.ts';
import { normalizeEmail } from '#lib/store/members.ts';
import { idMapping } from '#lib/store/move/ids.ts';
import { addLiveLinks, type NewLiveLink } from '#lib/store/move/live-links.ts';
import { BulkWriter } from '#lib/store/move/load.ts';
import { goneOf, presentEntities, presentOf, ratingNotes, type PresentEntity } from '#lib/store/move/present.ts';
import { beginRun, runKeyOf, saveProgress } from '#lib/store/move/runs.ts';
import { setNoteCustomer } from '#lib/store/notes.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { readRows, type Row } from './rows.ts';
import { UsageError } from '../admin/command.ts';
import type { PhaseProgress } from '../admin/progress.ts';

/** The fields a column can be mapped to (`--map field=column`). */
export const NOTE_COLUMNS = ['name', 'content', 'customer-email', 'company-domain', 'links', 'importance', 'date'] as const;
type Column = (typeof NOTE_COLUMNS)[number];

interface BadRow {
  line: number;
  field: string;
  reason: string;
}

type Entity = Omit<PresentEntity, 'deleting'>;

/** The live entities of the workspace, read once: the hierarchy for name paths, the customers by e-mail and domain. */
async function entitiesOf(ws: string): Promise<Map<string, Entity>> {
  const all = new Map((await presentEntities(ws)).map((e) => [e.id, e]));
  const live = (id: string | undefined, hops = 0): boolean =>
    id === undefined || (!!all.get(id) && !all.get(id)!.deleting && hops < 16 && live(all.get(id)!.parentId, hops + 1));
  return new Map([...all].filter(([id]) => live(id)));
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Plain text as the HTML a textNote holds: a paragraph per line. */
const textToHtml = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join('');

const NOTE = { kind: 'note', type: 'textNote' } as const;
const COMPANY = { kind: 'entity', type: 'company' } as const;
const USER = { kind: 'entity', type: 'user' } as const;
/** Calls `fail` with what the API would refuse in this value of a standard field, if anything (a row the API would not take is a bad row). */
const apiRefusal = (
  record: typeof NOTE | typeof COMPANY | typeof USER,
  field: 'name' | 'content' | 'domain' | 'email',
  value: string,
  fail: (why: string) => void,
) => {
  const why = standardFieldProblem(record, field, value);
  if (why) fail(why);
};

/**
 * How far past the run's start a row's date may be: a day, for the clocks and the time zones of
 * whoever wrote the file. A note or a rating dated later stays its customer's latest rating of its
 * entities for good, and no export would hold it (lib/domain/export-file-check.ts).
 */
const FUTURE_ALLOWANCE_MS = 24 * 60 * 60 * 1000;

/** A row's date as an ISO time, or why it is none: a day that no calendar has (Date.parse rolls 2025-02-30 over to March) or one past the allowance. */
function dateOf(text: string, now: string): { at: string } | { problem: string } {
  const parts = /^(\d{4})-(\d{2})-(\d{2})([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  const ms = Date.parse(text);
  if (!parts || Number.isNaN(ms)) return { problem: 'is not a date (YYYY-MM-DD or an ISO 8601 time)' };
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  // setUTCFullYear, not Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  if (calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day)
    return { problem: 'is no day of the calendar' };
  if (ms > Date.parse(now) + FUTURE_ALLOWANCE_MS)
    return { problem: `is later than the import (it began at ${now}, and a day is allowed for clocks and time zones)` };
  return { at: new Date(ms).toISOString() };
}

interface Planned {
  line: number;
  name: string;
  content?: string;
  customer?: { id: string; type: 'user' | 'company' };
  links: Array<{ entityId: string; entityType: HierarchyType }>;
  importance: Importance;
  at: string;
}

interface NewCustomer {
  id: string;
  type: 'user' | 'company';
  name: string;
  email?: string;
  domain?: string;
  parent?: string;
}

/** Every row checked against the workspace: the notes to write, the customers to create, the bad rows. */
function plan(
  rows: Row[],
  map: Record<Column, string | undefined>,
  entities: Map<string, Entity>,
  options: { create: boolean; id: (key: string) => string; now: string },
) {
  const bad: BadRow[] = [];
  const notes: Planned[] = [];
  const created = new Map<string, NewCustomer>();
  const byEmail = new Map<string, Entity[]>();
  const byDomain = new Map<string, Entity[]>();
  for (const e of entities.values()) {
    if (e.type === 'user' && e.email) byEmail.set(e.email, [...(byEmail.get(e.email) ?? []), e]);
    if (e.type === 'company' && e.domain) byDomain.set(e.domain, [...(byDomain.get(e.domain) ?? []), e]);
  }
  const hierarchy = [...entities.values()].filter((e) => isHierarchyType(e.type));
  const chainNames = (e: Entity): string[] => {
    const names: string[] = [];
    for (let x: Entity | undefined = e, hops = 0; x && hops < 16; x = x.parentId ? entities.get(x.parentId) : undefined, hops++)
      names.unshift(x.name.trim().toLowerCase());
    return names;
  };
  const cell = (row: Row, c: Column): string => {
    const column = map[c];
    const v = column === undefined ? undefined : row.values[column];
    return v === undefined || v === null
      ? ''
      : Array.isArray(v)
        ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(';')
        : (typeof v === 'string' ? v : JSON.stringify(v)).trim();
  };
  for (const row of rows) {
    const problems: BadRow[] = [];
    const fail = (field: string, reason: string) => problems.push({ line: row.line, field, reason });
    if ('__invalid' in row.values) {
      bad.push({ line: row.line, field: '', reason: 'not a JSON object' });
      continue;
    }
    const name = cell(row, 'name');
    if (!name) fail(map.name!, 'a note needs a name');
    else if (name.length > 255) fail(map.name!, `${name.length} characters; a name has at most 255`);
    else apiRefusal(NOTE, 'name', name, (why) => fail(map.name!, why));
    const content = cell(row, 'content');
    if (content.length > 50_000) fail(map.content!, `${content.length} characters; at most 50 000`);
    else if (content) apiRefusal(NOTE, 'content', textToHtml(content), (why) => fail(map.content!, `as HTML, ${why}`));
    const importanceText = cell(row, 'importance').toLowerCase();
    const importance = importanceText === '' ? 'unknown' : IMPORTANCES.find((i) => i === importanceText);
    if (!importance) fail(map.importance!, `'${importanceText.slice(0, 50)}' is no importance; one of ${IMPORTANCES.join(', ')}`);
    const dateText = cell(row, 'date');
    const dated = dateText === '' ? { at: options.now } : dateOf(dateText, options.now);
    if ('problem' in dated) fail(map.date!, `'${dateText.slice(0, 50)}' ${dated.problem}`);
    const at = 'at' in dated ? dated.at : undefined;
    // The customer: a user by e-mail, else a company by domain.
    const emailText = cell(row, 'customer-email');
    const domain = cell(row, 'company-domain').toLowerCase();
    let customer: Planned['customer'];
    let company: string | undefined;
    if (domain) {
      const found = byDomain.get(domain) ?? [];
      if (found.length > 1) fail(map['company-domain']!, `${found.length} companies have the domain ${domain}`);
      else if (found.length === 1) company = found[0]!.id;
      else if (options.create) {
        company = options.id(`company:${domain}`);
        created.set(company, { id: company, type: 'company', name: domain, domain });
        apiRefusal(COMPANY, 'domain', domain, (why) => fail(map['company-domain']!, why));
        apiRefusal(COMPANY, 'name', domain, (why) => fail(map['company-domain']!, `as the company's name, ${why}`));
      } else fail(map['company-domain']!, `no company has the domain ${domain} (--create-customers creates it)`);
    }
    if (emailText) {
      const email = normalizeEmail(emailText);
      const found = email ? (byEmail.get(email) ?? []) : [];
      if (!email) fail(map['customer-email']!, `'${emailText.slice(0, 80)}' is not an e-mail address`);
      else if (found.length > 1) fail(map['customer-email']!, `${found.length} users have the e-mail ${email}`);
      else if (found.length === 1) customer = { id: found[0]!.id, type: 'user' };
      else if (options.create) {
        const id = options.id(`user:${email}`);
        created.set(id, { id, type: 'user', name: email, email, ...(company ? { parent: company } : {}) });
        apiRefusal(USER, 'email', email, (why) => fail(map['customer-email']!, why));
        customer = { id, type: 'user' };
      } else fail(map['customer-email']!, `no user has the e-mail ${email} (--create-customers creates one)`);
    } else if (company) customer = { id: company, type: 'company' };
    // Links: entity ids, or name paths (`Product > Feature`, a suffix of the entity's chain).
    const links: Planned['links'] = [];
    for (const target of cell(row, 'links')
      .split(/[;\n]/)
      .map((t) => t.trim())
      .filter(Boolean)) {
      let found: Entity[];
      const text: string = target;
      const byId = UUID_PATTERN.test(text);
      if (byId) found = [entities.get(text.toLowerCase())].filter((e): e is Entity => e !== undefined && isHierarchyType(e.type));
      else {
        const path = text.split('>').map((s) => s.trim().toLowerCase());
        found = hierarchy.filter((e) => {
          const names = chainNames(e);
          return path.length <= names.length && path.every((p, i) => names[names.length - path.length + i] === p);
        });
      }
      if (found.length === 0)
        fail(map.links!, `no product, component, feature or subfeature ${byId ? 'has the id' : 'is at the path'} '${text.slice(0, 100)}'`);
      else if (found.length > 1)
        fail(map.links!, `the path '${text.slice(0, 100)}' is ambiguous: ${found.length} entities match it; give more of the path or the entity's id`);
      else if (!links.some((l) => l.entityId === found[0]!.id)) links.push({ entityId: found[0]!.id, entityType: found[0]!.type as HierarchyType });
    }
    if (problems.length) bad.push(...problems);
    else notes.push({ line: row.line, name, ...(content ? { content } : {}), ...(customer ? { customer } : {}), links, importance: importance!, at: at! });
  }
  return { bad, notes, created: [...created.values()] };
}

/**
 * The rows that would take one customer's notes on one entity past what a rating holds
 * (lib/store/aggregates.ts MAX_NOTES_PER_RATING), counting the notes of the workspace already there:
 * the API refuses such a link, so the file is refused before anything is written, naming each row.
 */
async function overRatingCap(ws: string, notes: readonly Planned[], noteId: (n: Planned) => string, linksColumn: string): Promise<BadRow[]> {
  const pairs = new Map<string, { entityId: string; customerId: string; notes: Planned[] }>();
  for (const n of notes) {
    if (!n.customer) continue;
    for (const l of n.links) {
      const key = `${l.entityId}#${n.customer.id}`;
      const pair = pairs.get(key) ?? { entityId: l.entityId, customerId: n.customer.id, notes: [] };
      pair.notes.push(n);
      pairs.set(key, pair);
    }
  }
  const all = [...pairs.values()];
  const ratings = await ratingNotes(ws, all);
  const bad: BadRow[] = [];
  for (const p of all) {
    const held = new Set(ratings.get(`${p.entityId}#${p.customerId}`));
    const before = held.size;
    for (const n of p.notes) {
      if (held.has(noteId(n))) continue;
      held.add(noteId(n));
      if (held.size > MAX_NOTES_PER_RATING)
        bad.push({
          line: n.line,
          field: linksColumn,
          reason: `its customer would rate ${p.entityId} through ${held.size} notes (${before} already in the workspace); a customer rates one entity through at most ${MAX_NOTES_PER_RATING}`,
        });
    }
  }
  return bad;
}

/**
 * The notes whose customer was deleted while the import ran lose it, as the delete makes every note of
 * that customer do (lib/store/cascade.ts): a delete whose clean-up passed before these notes were
 * written did not see them. Their links are then rated as anonymous. A delete that comes later finds
 * the notes itself.
 */
async function dropGoneCustomers(ws: string, notes: readonly Planned[], noteId: (n: Planned) => string): Promise<void> {
  const customers = [...new Set(notes.flatMap((n) => (n.customer ? [n.customer.id] : [])))];
  const gone = await goneOf(ws, customers);
  for (const n of notes) {
    if (!n.customer || !gone.has(n.customer.id)) continue;
    await setNoteCustomer(ws, noteId(n), null, { onlyIf: n.customer.id }).catch((err: unknown) => {
      // A note deleted meanwhile has no customer left to drop.
      if (!(err instanceof NotFound)) throw err;
    });
  }
}

interface NotesImportOptions {
  workspace: string;
  file: string;
  map: string[];
  createCustomers: boolean;
  dryRun: boolean;
  progress?: PhaseProgress;
}

/** `--map field=column` options as a mapping; `name` is required. */
function mapping(specs: string[]): Record<Column, string | undefined> {
  const out: Partial<Record<Column, string>> = {};
  for (const spec of specs) {
    const [field, ...rest] = spec.split('=');
    const column = rest.join('=').trim();
    if (!(NOTE_COLUMNS as readonly string[]).includes(field!.trim()) || !column)
      throw new UsageError(`--map ${spec}: write field=column, field one of ${NOTE_COLUMNS.join(', ')}`);
    out[field!.trim() as Column] = column;
  }
  if (!out.name) throw new UsageError("--map name=COLUMN is required: the column holding each note's name");
  return out as Record<Column, string | undefined>;
}

export async function importNotes(o: NotesImportOptions) {
  const map = mapping(o.map);
  if (!(await getWorkspace(o.workspace))) throw new UsageError(`No workspace ${o.workspace}`);
  const { rows, bytes, columns } = await readRows(o.file);
  // A column the header lacks would read as empty in every row; one it has twice, as the last of them.
  for (const [field, column] of Object.entries(map)) {
    if (!columns || column === undefined) continue;
    if (!columns.includes(column)) throw new UsageError(`--map ${field}=${column}: ${o.file} has no column ${column}; its columns are ${columns.join(', ')}`);
    if (columns.indexOf(column) !== columns.lastIndexOf(column))
      throw new UsageError(`--map ${field}=${column}: ${o.file} has the column ${column} more than once; rename one of them`);
  }
  const fileHash = createHash('sha256').update(bytes).digest('hex');
  const runKey = runKeyOf('import notes', o.workspace, fileHash, JSON.stringify(map), String(o.createCustomers));
  // The run's own ids: another mapping of the same file makes other notes, never rewrites these.
  const id = idMapping(o.workspace, `notes:${runKey}`);
  const existing = o.dryRun
    ? undefined
    : await beginRun<{ notes: number }>({ runKey, command: 'import notes', workspaceId: o.workspace, name: o.file, checkpoint: { notes: 0 } });
  // Rows without a date are dated when the run began, the same on every run of it.
  const now = existing?.run.startedAt ?? new Date().toISOString();
  o.progress?.phase('rows checked', { total: rows.length, unit: 'rows' });
  const planned = plan(rows, map, await entitiesOf(o.workspace), { create: o.createCustomers, id, now });
  const noteId = (n: Planned) => id(`row:${n.line}`);
  if (map.links) planned.bad.push(...(await overRatingCap(o.workspace, planned.notes, noteId, map.links)));
  planned.bad.sort((a, b) => a.line - b.line);
  o.progress?.update(rows.length);
  const summary = {
    rows: rows.length,
    notes: planned.notes.length,
    links: planned.notes.reduce((n, r) => n + r.links.length, 0),
    customersCreated: planned.created.length,
  };
  if (o.dryRun) {
    o.progress?.end();
    return { dryRun: true, workspace: o.workspace, ...summary, bad: planned.bad };
  }
  if (planned.bad.length) {
    const badLines = new Set(planned.bad.map((b) => b.line)).size;
    throw new UsageError(
      `${counted(badLines, 'bad row')}; nothing was written:\n${planned.bad.map((b) => `  line ${b.line}: ${b.field ? `${b.field}: ` : ''}${b.reason}`).join('\n')}`,
    );
  }
  const { run, resumed } = existing!;
  const quiet = `notes:${runKey.slice(0, 16)}`;
  const writer = new BulkWriter({ ws: o.workspace, id: (x) => x, quiet, sealedSecret: () => '' });
  if (run.state === 'loading') {
    o.progress?.phase('notes written', { total: planned.notes.length, unit: 'notes' });
    // A run that stopped had written records past its checkpoint, which API clients may have changed
    // since (a customer renamed, a note relinked): those stay as they are, never written over.
    const pending = planned.notes.slice(run.checkpoint.notes);
    const written = resumed
      ? new Set([
          ...(await presentOf(o.workspace, 'note', pending.map(noteId))),
          ...(await presentOf(
            o.workspace,
            'entity',
            planned.created.map((c) => c.id),
          )),
        ])
      : new Set<string>();
    for (const c of planned.created) {
      if (written.has(c.id)) continue;
      await writer.add({
        kind: 'entity',
        id: c.id,
        type: c.type,
        ...(c.parent ? { parent: { id: c.parent, type: 'company' } } : {}),
        fields: { name: c.name, ...(c.email ? { email: c.email } : {}), ...(c.domain ? { domain: c.domain } : {}) },
        createdAt: now,
        updatedAt: now,
      });
    }
    for (let i = run.checkpoint.notes; i < planned.notes.length; i++) {
      const n = planned.notes[i]!;
      // Links go in with their aggregates (below): the note is written without them.
      if (!written.has(noteId(n)))
        await writer.add({
          kind: 'note',
          id: noteId(n),
          type: 'textNote',
          fields: { name: n.name, ...(n.content ? { content: textToHtml(n.content) } : {}) },
          ...(n.customer ? { customer: n.customer } : {}),
          createdAt: n.at,
          updatedAt: n.at,
          links: [],
        });
      if ((i + 1) % 1000 === 0 || i === planned.notes.length - 1) {
        await writer.flush();
        await saveProgress(run, { checkpoint: { notes: i + 1 }, counts: { notes: i + 1, customersCreated: planned.created.length } });
        o.progress?.update(i + 1);
      }
    }
    await writer.flush();
    await saveProgress(run, { state: 'aggregating' });
  }
  await dropGoneCustomers(o.workspace, planned.notes, noteId);
  const links: NewLiveLink[] = planned.notes.flatMap((n) =>
    n.links.map((l) => ({
      noteId: noteId(n),
      entityId: l.entityId,
      entityType: l.entityType,
      customerId: n.customer?.id,
      importance: n.importance,
      setAt: Date.parse(n.at),
    })),
  );
  o.progress?.phase('links rated', { total: links.length, unit: 'links' });
  const added = await addLiveLinks(o.workspace, links, (n) => o.progress?.update(n));
  o.progress?.end();
  if (run.state !== 'complete') await saveProgress(run, { state: 'complete', completedAt: new Date().toISOString() });
  return { workspace: o.workspace, ...summary, resumed, linksAdded: added.added, linksToEntitiesGone: added.entityGone, linksToNotesGone: added.noteGone };
}
