// admin restore checks the whole file before it writes anything: a file an export did not write — a
// record twice, a reference to a record the file does not hold — is refused with its line, and no
// run, no workspace and no record of it is left in the table. Files are written by hand, small: a
// product, a feature, a company and a note linking the feature; the good one restores.
import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH } from '#lib/domain/hierarchy.ts';
import { MOVE_KINDS } from '#lib/domain/schemas/workspace-export.ts';
import { scanPages } from '#lib/store/calls.ts';
import { listCustomFields } from '#lib/store/custom-fields.ts';
import { getEntity } from '#lib/store/entities.ts';
import { idMapping } from '#lib/store/move/ids.ts';
import { readRun, runKeyOf } from '#lib/store/move/runs.ts';
import { QUIET_WRITE } from '#lib/store/stream-records.ts';
import { tableName } from '#lib/store/table.ts';
import { ensureTable } from '../../local/dynamodb-local.ts';
import { MAX_LINE_BYTES } from '../../local/move/export-file.ts';
import { restoreWorkspace } from '../../local/move/restore.ts';

const u = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [PRODUCT, FEATURE, COMPANY, NOTE, ELSEWHERE] = [u(1), u(2), u(3), u(4), u(5)];
const AT = '2025-03-01T10:00:00.000Z';
const files: string[] = [];

type Line = Record<string, unknown>;
const entity = (id: string, type: string, parent?: { id: string; type: string }, fields: Record<string, unknown> = { name: `${type} ${id.slice(-2)}` }) => ({
  kind: 'entity',
  id,
  type,
  ...(parent ? { parent } : {}),
  fields,
  createdAt: AT,
  updatedAt: AT,
});
const link = (entityId: string, entityType = 'feature') => ({ entityId, entityType, importance: 'critical', ratedAt: AT });
const note = (id: string, links: Line[]) => ({
  kind: 'note',
  id,
  type: 'textNote',
  fields: { name: 'Need it' },
  customer: { id: COMPANY, type: 'company' },
  createdAt: AT,
  updatedAt: AT,
  links,
});
const goodRecords = (): Line[] => [
  { ...entity(PRODUCT, 'product'), score: 3 },
  { ...entity(FEATURE, 'feature', { id: PRODUCT, type: 'product' }), score: 3 },
  entity(COMPANY, 'company'),
  note(NOTE, [link(FEATURE)]),
];

/** An export file of `records`, with its header and an end record counting them; answers its path and export id. */
async function exportFile(records: Line[], exportId: string = randomUUID()): Promise<{ path: string; exportId: string }> {
  const header = { format: 'pm-score-api.workspace-export', version: 2, exportId, exportedAt: AT, workspace: { id: u(99), name: 'By hand', createdAt: AT } };
  const counts: Record<string, number> = Object.fromEntries(MOVE_KINDS.map((k) => [k, 0]));
  for (const r of records) counts[r.kind as string] = (counts[r.kind as string] ?? 0) + 1;
  const path = join(tmpdir(), `move-restore-checks-${process.pid}-${files.length}.jsonl.gz`);
  files.push(path);
  const text = [header, ...records, { kind: 'end', counts }].map((l) => JSON.stringify(l)).join('\n') + '\n';
  // "\udcff" (a lone surrogate, kept by JSON.stringify as an escape) stands for a byte that is not UTF-8.
  await writeFile(path, gzipSync(Buffer.concat(text.split('\\udcff').flatMap((part, i) => [...(i ? [Buffer.from([0xff])] : []), Buffer.from(part)]))));
  return { path, exportId };
}

/** The items a restore of this export into this name wrote: each carries its run's mark (lib/store/move/kinds.ts). */
async function writtenBy(exportId: string, name: string): Promise<number> {
  const mark = `restore:${runKeyOf('restore', exportId, name).slice(0, 16)}`;
  let n = 0;
  for await (const page of scanPages({
    TableName: tableName(),
    FilterExpression: '#q = :q',
    ExpressionAttributeNames: { '#q': QUIET_WRITE },
    ExpressionAttributeValues: { ':q': mark },
    ConsistentRead: true,
  }))
    n += page.length;
  return n;
}

/** Restores `records` and expects the refusal `message` (after the file's name), with nothing written. */
async function expectRefused(records: Line[], message: string): Promise<void> {
  const { path, exportId } = await exportFile(records);
  await expect(restoreWorkspace(path, { name: 'Refused' })).rejects.toThrow(`${path} ${message}`);
  expect(await readRun(runKeyOf('restore', exportId, 'Refused'))).toBeUndefined();
  expect(await writtenBy(exportId, 'Refused')).toBe(0);
}

// A table of this file's own: writtenBy reads the whole table after every refusal, which on the
// suite's shared table grows with what every other file has written by then.
beforeAll(async () => {
  process.env.TABLE_NAME = 'pm-api-test-restore-checks';
  await ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName());
});

afterAll(async () => {
  for (const f of files) await rm(f, { force: true });
});

describe('restore refuses a file whose records do not hold together, writing nothing', () => {
  it('the good file restores, with its link rated', async () => {
    const { path, exportId } = await exportFile(goodRecords());
    const restored = await restoreWorkspace(path, { name: 'Good by hand', adminEmail: 'admin@example.com' });
    expect(restored.counts).toMatchObject({ entity: 3, note: 1 });
    expect(restored.scores).toEqual({ checked: 2, mismatches: 0 });
    // What the refusals below count: the run's items carry its mark.
    expect(await writtenBy(exportId, 'Good by hand')).toBeGreaterThan(0);
  });

  it('a note linking an entity the file does not hold', async () => {
    const records = goodRecords();
    records[3] = note(NOTE, [link(FEATURE), link(ELSEWHERE)]);
    await expectRefused(records, `line 5: links.1.entityId: no entity record of the file has the id ${ELSEWHERE}. Nothing was restored.`);
  });

  it('a note linking the same entity twice', async () => {
    const records = goodRecords();
    records[3] = note(NOTE, [link(FEATURE), link(FEATURE)]);
    await expectRefused(records, `line 5: links.1.entityId: the note links ${FEATURE} twice. Nothing was restored.`);
  });

  it("a date later than the export, beyond a day for clocks: a rating dated 9999 would stay its customer's latest for good", async () => {
    const records = goodRecords();
    records[3] = note(NOTE, [{ ...link(FEATURE), ratedAt: '9999-01-01T00:00:00.000Z' }]);
    await expectRefused(
      records,
      "line 5: links.0.ratedAt: 9999-01-01T00:00:00.000Z is later than the export that holds it (its header's exportedAt, and a day for clocks). Nothing was restored.",
    );
    const late = goodRecords();
    late[2] = { ...entity(COMPANY, 'company'), createdAt: '2025-03-02T10:00:00.001Z' };
    await expectRefused(
      late,
      "line 4: createdAt: 2025-03-02T10:00:00.001Z is later than the export that holds it (its header's exportedAt, and a day for clocks). Nothing was restored.",
    );
    // Within the day, a clock's difference, restores.
    const skewed = goodRecords();
    skewed[3] = note(NOTE, [{ ...link(FEATURE), ratedAt: '2025-03-02T10:00:00.000Z' }]);
    skewed[3].updatedAt = '2025-03-02T10:00:00.000Z';
    const { path } = await exportFile(skewed);
    expect((await restoreWorkspace(path, { name: 'Skewed clock', adminEmail: 'admin@example.com' })).counts).toMatchObject({ note: 1 });
  });

  it('a note line repeated', async () => {
    const records = [...goodRecords(), note(NOTE, [link(FEATURE)])];
    await expectRefused(records, `line 6: a second note record ${NOTE} (the first is on line 5). Nothing was restored.`);
  });

  it('a link naming an entity by another type than its own', async () => {
    const records = goodRecords();
    records[3] = note(NOTE, [link(FEATURE, 'subfeature')]);
    await expectRefused(records, `line 5: links.0.entityId: ${FEATURE} is a feature (line 3), not a subfeature. Nothing was restored.`);
  });
});

describe('restore refuses a record its one item could not hold, writing nothing', () => {
  // No API write bounds every part of these records; each is one item, which the table would refuse
  // part-way through the restore, with the records before it written.
  const big = 'x'.repeat(400 * 1024);
  const refusal = 'The record holds at most 320.0 KiB as JSON (got 400.';
  it("a member's name", async () => {
    const member = { kind: 'member', id: u(60), email: 'big@example.com', name: big, role: 'viewer', active: true, createdAt: AT };
    await expectRefused([member, ...goodRecords()], `line 2: ${refusal}`);
  });

  it("a select field's replaced options", async () => {
    const replaced = Object.fromEntries(Array.from({ length: 8000 }, (_, i) => [u(100_000 + i), 'option-a']));
    const field = {
      kind: 'customField',
      id: u(61),
      entityType: 'feature',
      name: 'Size',
      fieldKind: 'select',
      values: [{ id: 'option-a', name: 'A', color: 'gray' }],
      replaced,
      createdAt: AT,
    };
    await expectRefused([field, ...goodRecords()], 'line 2: The record holds at most 320.0 KiB as JSON (got ');
  });

  it("a webhook subscription's client", async () => {
    const webhook = {
      kind: 'webhook',
      id: u(62),
      name: 'Hook',
      events: ['note.created'],
      url: 'https://hooks.example.com/in',
      version: 1,
      status: 'active',
      createdAt: AT,
      createdByClient: big,
    };
    await expectRefused([...goodRecords(), webhook], `line 6: ${refusal}`);
  });
});

describe('restore refuses entities whose tree the API would refuse, writing nothing', () => {
  const [A, B] = [u(21), u(22)];
  it('a cycle', async () => {
    const records = [...goodRecords()];
    records.splice(2, 0, entity(A, 'component', { id: B, type: 'component' }), entity(B, 'component', { id: A, type: 'component' }));
    await expectRefused(records, `line 4: parent: ${B} is under this entity itself (a cycle). Nothing was restored.`);
  });

  it('a parent the file does not hold', async () => {
    const records = [...goodRecords()];
    records.splice(2, 0, entity(A, 'component', { id: ELSEWHERE, type: 'product' }));
    await expectRefused(records, `line 4: parent.id: no entity record of the file has the id ${ELSEWHERE}. Nothing was restored.`);
  });

  it('a parent of a type the rules do not allow', async () => {
    const records = [...goodRecords()];
    records.splice(2, 0, entity(A, 'component', { id: PRODUCT, type: 'product' }), entity(B, 'product', { id: A, type: 'component' }));
    await expectRefused(records, 'line 5: parent: A product cannot have a parent. Nothing was restored.');
  });

  it('a parent named by another type than its own', async () => {
    const records = [...goodRecords()];
    records.splice(2, 0, entity(A, 'component', { id: PRODUCT, type: 'component' }));
    await expectRefused(records, `line 4: parent.type: ${PRODUCT} is a product (line 2), not a component. Nothing was restored.`);
  });

  it('a tree deeper than the cap', async () => {
    // A product and eight nested components: nine levels.
    const chain = Array.from({ length: 8 }, (_, i) =>
      entity(u(30 + i), 'component', i === 0 ? { id: PRODUCT, type: 'product' } : { id: u(29 + i), type: 'component' }),
    );
    await expectRefused(
      [...goodRecords(), ...chain].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'entity' ? -1 : 1)),
      `line 12: parent: The hierarchy would be 9 levels deep; the maximum is ${MAX_DEPTH}. Nothing was restored.`,
    );
  });
});

describe('restore refuses relations the API would not create, writing nothing', () => {
  const relation = (entityId: string, entityType: string, type: string, targetId: string, targetType: string) => ({
    kind: 'relation',
    entityId,
    entityType,
    type,
    targetId,
    targetType,
    createdAt: AT,
  });
  /** The good records with `relations` after the entities (line 5 on). */
  const withRelations = (...relations: Line[]) => {
    const records = goodRecords();
    return [...records.slice(0, 3), ...relations, ...records.slice(3)];
  };

  it('a relation of a type its two entities may have restores', async () => {
    const { path } = await exportFile(withRelations(relation(PRODUCT, 'product', 'isBlocking', FEATURE, 'feature')));
    const restored = await restoreWorkspace(path, { name: 'Relations by hand', adminEmail: 'admin@example.com' });
    expect(restored.counts).toMatchObject({ relation: 1 });
  });

  it('a relation its two types may not have, or with the entity itself', async () => {
    await expectRefused(
      withRelations(relation(FEATURE, 'feature', 'link', COMPANY, 'company')),
      `line 5: targetId: Entity ${COMPANY} is a company; a feature has link relationships with a product, component, feature, subfeature, initiative, objective, keyResult or release only. Nothing was restored.`,
    );
    await expectRefused(
      withRelations(relation(COMPANY, 'company', 'isBlocking', FEATURE, 'feature')),
      'line 5: targetId: A company has no isBlocking relationships. Nothing was restored.',
    );
    await expectRefused(
      withRelations(relation(FEATURE, 'feature', 'link', FEATURE, 'feature')),
      'line 5: targetId: An entity cannot have a link relationship with itself. Nothing was restored.',
    );
  });

  it('two entities blocking each other', async () => {
    await expectRefused(
      withRelations(relation(PRODUCT, 'product', 'isBlocking', FEATURE, 'feature'), relation(FEATURE, 'feature', 'isBlocking', PRODUCT, 'product')),
      `line 6: targetId: Entity ${FEATURE} already has a relationship of type isBlockedBy with entity ${PRODUCT}; the two cannot block each other. Nothing was restored.`,
    );
  });

  it('a relation given again by its other side', async () => {
    await expectRefused(
      withRelations(relation(PRODUCT, 'product', 'link', FEATURE, 'feature'), relation(FEATURE, 'feature', 'link', PRODUCT, 'product')),
      `line 6: a second relation record ${FEATURE} link ${PRODUCT} (the first is on line 5). Nothing was restored.`,
    );
    await expectRefused(
      withRelations(relation(PRODUCT, 'product', 'isBlocking', FEATURE, 'feature'), relation(FEATURE, 'feature', 'isBlockedBy', PRODUCT, 'product')),
      `line 6: a second relation record ${FEATURE} isBlockedBy ${PRODUCT} (the first is on line 5). Nothing was restored.`,
    );
  });
});

describe('restore continues a run with the file it began with only', () => {
  const message = (path: string, exportId: string, name: string) =>
    `${path} is not the file the restore of export ${exportId} as "${name}" began with (its SHA-256 differs): run it with that file to continue, or with another --name to restore this one as a new workspace`;

  it('another file with the export id of a completed restore is refused; nothing of it is written', async () => {
    const { path, exportId } = await exportFile(goodRecords());
    await restoreWorkspace(path, { name: 'Same id', adminEmail: 'admin@example.com' });
    const written = await writtenBy(exportId, 'Same id');
    const other = await exportFile([...goodRecords(), note(u(40), [link(PRODUCT, 'product')])], exportId);
    await expect(restoreWorkspace(other.path, { name: 'Same id', adminEmail: 'admin@example.com' })).rejects.toThrow(message(other.path, exportId, 'Same id'));
    expect(await writtenBy(exportId, 'Same id')).toBe(written);
  });

  it('a file edited after a restore stopped is refused on the next run, not skipped', async () => {
    // The run loads the file and stops before it completes: the admin named is a viewer of it.
    const member = { kind: 'member', id: u(50), email: 'viewer@example.com', name: 'Viewer', role: 'viewer', active: true, createdAt: AT };
    const { path, exportId } = await exportFile([member, ...goodRecords()]);
    await expect(restoreWorkspace(path, { name: 'Stopped', adminEmail: 'viewer@example.com' })).rejects.toThrow(
      /is a member of the workspace but not an active admin/,
    );
    expect((await readRun(runKeyOf('restore', exportId, 'Stopped')))?.state).toBe('aggregating');
    const edited = await exportFile([{ ...member, role: 'admin' }, ...goodRecords()], exportId);
    await expect(restoreWorkspace(edited.path, { name: 'Stopped', adminEmail: 'viewer@example.com' })).rejects.toThrow(
      message(edited.path, exportId, 'Stopped'),
    );
    // The file it began with continues it.
    await expect(restoreWorkspace(path, { name: 'Stopped', adminEmail: 'admin@example.com' })).resolves.toMatchObject({ resumed: true });
  });
});

describe('restore names what it refuses in a line', () => {
  it('bytes that are not UTF-8: refused with the line, never replaced', async () => {
    const records = goodRecords();
    records[2] = entity(COMPANY, 'company', undefined, { name: 'Caf\udcff' });
    await expectRefused(records, 'line 4: not UTF-8 text (invalid bytes are refused, never replaced)');
  });

  it('a line longer than any record: refused with the line before it is read whole', async () => {
    const records = goodRecords();
    records[2] = entity(COMPANY, 'company', undefined, { name: 'x'.repeat(MAX_LINE_BYTES) });
    await expectRefused(records, `line 4: longer than 16 MiB, more than any record of an export; not read`);
  });

  it('a member given twice in one object, or a lone surrogate: refused with the line, as the API refuses them in a body', async () => {
    const records = goodRecords();
    records[2] = entity(COMPANY, 'company', undefined, { name: 'Acme', twin: 'Acme Corp' });
    const { path, exportId } = await exportFile(records);
    const edit = async (from: string, to: string) => {
      const text = gunzipSync(await readFile(path)).toString('utf8');
      await writeFile(path, gzipSync(text.replace(from, to)));
    };
    await edit('"twin"', '"name"');
    await expect(restoreWorkspace(path, { name: 'Twice' })).rejects.toThrow(
      `${path} line 4: '/fields' gives the member 'name' more than once; send each member once (a JSON reader keeps only one of them).`,
    );
    await edit('"name":"Acme Corp"', '"label":"Acme \\ud800"');
    await expect(restoreWorkspace(path, { name: 'Twice' })).rejects.toThrow(
      `${path} line 4: '/fields/label' holds a lone UTF-16 surrogate, which is not text.`,
    );
    expect(await readRun(runKeyOf('restore', exportId, 'Twice'))).toBeUndefined();
    expect(await writtenBy(exportId, 'Twice')).toBe(0);
  });

  it('a key the format does not have: named', async () => {
    const records = goodRecords();
    records[2] = { ...entity(COMPANY, 'company'), colour: 'red' };
    await expectRefused(records, "line 4: no such key 'colour'");
  });

  it('another version of the format: the versions read are named', async () => {
    const { path } = await exportFile(goodRecords());
    const lines = gunzipSync(await readFile(path))
      .toString('utf8')
      .split('\n');
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), version: 1 });
    await writeFile(path, gzipSync(lines.join('\n')));
    await expect(restoreWorkspace(path, { name: 'Version 1' })).rejects.toThrow(
      `${path} is version 1 of the export format; this restore reads version 2 only (export the workspace again)`,
    );
  });
});

describe('restore refuses fields the API would not store, writing nothing', () => {
  const withFields = (fields: Record<string, unknown>, type = 'feature') => {
    const records = goodRecords();
    records[1] = { ...entity(FEATURE, type, { id: PRODUCT, type: 'product' }, { name: 'Apple Pay', ...fields }), score: 3 };
    return records;
  };

  it('a field the type does not have', async () => {
    await expectRefused(
      withFields({ colour: 'red' }),
      'line 3: fields.colour: no field of a feature; its fields are name, description, status, owner, tags, teams, timeframe, archived and its custom fields by id',
    );
  });

  it('a name of the wrong type, or longer than the API takes', async () => {
    await expectRefused(withFields({ name: 12345 }), "line 3: '/fields/name' must be a string (got 12345)");
    await expectRefused(withFields({ name: 'x'.repeat(300_000) }), "line 3: '/fields/name' must be at most 255 characters long (got 300000)");
  });

  it('fields past what one record holds, each within its own limit: refused with the line, as a PATCH that would cross it is', async () => {
    // 97 000 four-byte characters: under the description's 100 000, over the 320 KiB a record holds.
    const description = `<p>${'\u{1F600}'.repeat(97_000)}</p>`;
    await expectRefused(
      withFields({ description }),
      `line 3: fields: Entity ${FEATURE} would hold 378.9 KiB of fields and metadata; a record holds at most 320.0 KiB. Shorten or clear a field first.`,
    );
  });

  it('an entity or a note without a name, which the API never makes', async () => {
    const nameless = goodRecords();
    nameless[1] = { ...entity(FEATURE, 'feature', { id: PRODUCT, type: 'product' }, { description: '<p>No name</p>' }), score: 3 };
    await expectRefused(nameless, 'line 3: fields.name: every entity has a name; this one has none');
    const notes = goodRecords();
    notes[3] = { ...note(NOTE, [link(FEATURE)]), fields: {} };
    await expectRefused(notes, 'line 5: fields.name: every note has a name; this one has none');
  });

  it("a status that is none of the type's", async () => {
    await expectRefused(withFields({ status: 'not-a-status' }), "line 3: '/fields/status' must be an object (got 'not-a-status')");
    await expectRefused(withFields({ status: { id: u(77), name: 'Planned' } }), `line 3: fields.status: ${u(77)} is no status of a feature`);
  });

  it("a select value whose option the field no longer lists restores: the service keeps a deleted option's id on its records", async () => {
    const [SIZE, KEPT, DELETED] = [u(70), u(71), u(72)];
    const size = {
      kind: 'customField',
      id: SIZE,
      entityType: 'feature',
      name: 'Size',
      fieldKind: 'select',
      options: ['S'],
      values: [{ id: KEPT, name: 'S', color: 'red', seq: 0 }],
      createdAt: AT,
    };
    const { path } = await exportFile([size, ...withFields({ [SIZE]: DELETED })]);
    const restored = await restoreWorkspace(path, { name: 'Deleted option', adminEmail: 'admin@example.com' });
    expect(restored.counts).toMatchObject({ customField: 1, entity: 3 });
    // A value not of the shape a select field stores (a string) is still refused.
    await expectRefused([size, ...withFields({ [SIZE]: { id: KEPT, name: 'S' } })], `line 4: fields.${SIZE}: not a value of the select field 'Size'`);
  });

  it("a custom field's id in upper case names the field its records' keys name in lower case, and is one field with it", async () => {
    const EFFORT = '0000000A-0000-4000-8000-0000000000EF';
    const effort = { kind: 'customField', id: EFFORT, entityType: 'feature', name: 'Effort', fieldKind: 'number', createdAt: AT };
    const { path } = await exportFile([effort, ...withFields({ [EFFORT.toLowerCase()]: 5 })]);
    const restored = await restoreWorkspace(path, { name: 'Field id in upper case', adminEmail: 'admin@example.com' });
    const [field] = await listCustomFields(restored.id, 'feature');
    const feature = await getEntity(restored.id, idMapping(restored.id, `export:${u(99)}`)(FEATURE));
    expect(feature?.fields[field!.id]).toBe(5);
    await expectRefused(
      [effort, { ...effort, id: EFFORT.toLowerCase(), name: 'Effort again' }, ...goodRecords()],
      `line 3: a second customField record ${EFFORT.toLowerCase()} (the first is on line 2)`,
    );
  });

  it("a note's content as the API takes it on write: any HTML within the length (pages sanitise it when they show it), each conversation part once", async () => {
    const withContent = (type: string, content: unknown) => {
      const records = goodRecords();
      records[3] = { ...note(NOTE, [link(FEATURE)]), type, fields: { name: 'Need it', content } };
      return records;
    };
    const html =
      '<h1 onclick="go()">Need it</h1><script>alert(1)</script><img src=x onerror="alert(2)"><style>p{}</style><iframe src="https://example.com"></iframe>';
    const { path } = await exportFile(withContent('textNote', html));
    await expect(restoreWorkspace(path, { name: 'Any HTML', adminEmail: 'admin@example.com' })).resolves.toMatchObject({ counts: { note: 1 } });
    await expectRefused(
      withContent('textNote', 'x'.repeat(100_001)),
      "line 5: '/fields/content' must be at most 100000 characters long (got 100001). Nothing was restored.",
    );
    const part = (externalId: string) => ({ externalId, authorType: 'customer', content: 'Please', timestamp: '2025-02-03T04:05:06Z' });
    await expectRefused(
      withContent('conversationNote', [part('m1'), part('m2'), part('m1')]),
      "line 5: '/fields/content/2/externalId' gives externalId 'm1' a second time: each part once. Nothing was restored.",
    );
    await expectRefused(withContent('conversationNote', 'Please'), "line 5: A conversationNote's content is a list of conversation parts");
  });

  it('a custom field the file does not configure for the type', async () => {
    await expectRefused(withFields({ [u(88)]: 3 }), `line 3: fields.${u(88)}: no customField record of the file configures it for a feature`);
  });
});

describe('restore refuses a reference the API resolves against the workspace when the file does not hold it, writing nothing', () => {
  const [MEMBER, TAG, TEAM] = [u(60), u(61), u(62)];
  const ann = { id: MEMBER, email: 'ann@example.com' };
  const member = { kind: 'member', id: MEMBER, email: ann.email, name: 'Ann', role: 'maker', active: false, createdAt: AT };
  /** The good records after a member (line 2): the product on line 3, the feature on 4, the company on 5, the note on 6. */
  const withMember = (feature: Record<string, unknown> = {}, noteFields: Record<string, unknown> = {}, more: Line[] = []) => {
    const records = goodRecords();
    records[1] = { ...entity(FEATURE, 'feature', { id: PRODUCT, type: 'product' }, { name: 'Apple Pay', ...feature }), score: 3 };
    records[3] = { ...note(NOTE, [link(FEATURE)]), fields: { name: 'Need it', ...noteFields } };
    return [member, ...records, ...more];
  };
  const comment = (author: { id: string; email: string }) => ({ kind: 'comment', id: u(63), noteId: NOTE, content: 'Agreed', author, createdAt: AT });

  it('owners, creators and comment authors naming members of the file restore (a deactivated member too)', async () => {
    const { path } = await exportFile(withMember({ owner: ann }, { owner: ann, creator: { ...ann, email: 'Ann@Example.com' } }, [comment(ann)]));
    const restored = await restoreWorkspace(path, { name: 'Members by hand', adminEmail: 'admin@example.com' });
    expect(restored.counts).toMatchObject({ member: 1, entity: 3, note: 1, comment: 1 });
  });

  it('an owner, a creator or a comment author who is no member of the file', async () => {
    const stranger = { id: ELSEWHERE, email: 'stranger@example.com' };
    await expectRefused(
      withMember({ owner: stranger }),
      `line 4: fields.owner.id: no member record of the file has the id ${ELSEWHERE}. Nothing was restored.`,
    );
    await expectRefused(
      withMember({}, { creator: stranger }),
      `line 6: fields.creator.id: no member record of the file has the id ${ELSEWHERE}. Nothing was restored.`,
    );
    await expectRefused(
      withMember({}, {}, [comment(stranger)]),
      `line 7: author.id: no member record of the file has the id ${ELSEWHERE}. Nothing was restored.`,
    );
  });

  it("a member named with another e-mail than the member's own", async () => {
    await expectRefused(
      withMember({}, { owner: { id: MEMBER, email: 'bob@example.com' } }),
      `line 6: fields.owner.email: member ${MEMBER} (line 2) has the e-mail 'ann@example.com', not 'bob@example.com'. Nothing was restored.`,
    );
  });

  it("an entity's tags and teams naming tag values and teams of the file restore", async () => {
    const tagValue = { kind: 'tagValue', id: TAG, name: 'core', color: 'red', createdAt: AT };
    const team = { kind: 'team', id: TEAM, name: 'Web', handle: 'web', createdAt: AT, updatedAt: AT };
    const records = withMember({ tags: [{ id: TAG, name: 'core' }], teams: [{ id: TEAM, name: 'Web' }] });
    const { path } = await exportFile([team, records[0]!, tagValue, ...records.slice(1)]);
    const restored = await restoreWorkspace(path, { name: 'Tags by hand', adminEmail: 'admin@example.com' });
    expect(restored.counts).toMatchObject({ team: 1, tagValue: 1, entity: 3 });
  });

  it("an entity's tag or team that is no tag value or team of the file", async () => {
    await expectRefused(
      withMember({ tags: [{ id: TAG, name: 'core' }] }),
      `line 4: fields.tags.0.id: no tagValue record of the file has the id ${TAG}. Nothing was restored.`,
    );
    await expectRefused(
      withMember({ teams: [{ id: TEAM, name: 'Web' }] }),
      `line 4: fields.teams.0.id: no team record of the file has the id ${TEAM}. Nothing was restored.`,
    );
  });
});

describe('restore refuses the fields of teams, custom fields, tag values, comments and webhooks the API would not take, writing nothing', () => {
  const member = { kind: 'member', id: u(80), email: 'ann@example.com', name: 'Ann', role: 'maker', active: true, createdAt: AT };
  const team = { kind: 'team', id: u(81), name: 'Web', handle: 'web', description: 'The web app', createdAt: AT, updatedAt: AT };
  const field = { kind: 'customField', id: u(82), entityType: 'feature', name: 'Effort', fieldKind: 'number', createdAt: AT };
  const tagValue = { kind: 'tagValue', id: u(83), name: 'core', color: 'red', createdAt: AT };
  const comment = { kind: 'comment', id: u(84), noteId: NOTE, content: 'Agreed', author: { id: u(80), email: 'ann@example.com' }, createdAt: AT };
  const webhook = {
    kind: 'webhook',
    id: u(85),
    name: 'Scores',
    events: ['customer-score.updated', 'note.created'],
    url: 'https://hooks.example.com/pm',
    version: 1,
    status: 'active',
    createdAt: AT,
  };
  /** One of each: the team on line 2, the member on 3, the field on 4, the tag value on 5, the good records on 6 to 9, the comment on 10, the webhook on 11. */
  const records = (changed: Line = {}) => {
    const all = [team, member, field, tagValue, ...goodRecords(), comment, webhook];
    return all.map((r) => (r.kind === changed.kind && r.id === changed.id ? changed : r));
  };

  it('records within what the API takes restore', async () => {
    const { path } = await exportFile(records());
    const restored = await restoreWorkspace(path, { name: 'One of each by hand', adminEmail: 'admin@example.com' });
    expect(restored.counts).toMatchObject({ team: 1, member: 1, customField: 1, tagValue: 1, comment: 1, webhook: 1 });
  });

  it("a team's name, handle or description", async () => {
    await expectRefused(records({ ...team, name: 'x'.repeat(256) }), "line 2: '/name' must be at most 255 characters long (got 256)");
    await expectRefused(records({ ...team, handle: 'Web team' }), "line 2: '/handle' must be lowercase letters and digits only (got 'Web team')");
    await expectRefused(records({ ...team, description: 'x'.repeat(10_001) }), "line 2: '/description' must be at most 10000 characters long (got 10001)");
  });

  it("a custom field's type or name", async () => {
    await expectRefused(records({ ...field, entityType: 'epic' }), "line 4: '/entityType' must be one of 'product', 'component'");
    await expectRefused(records({ ...field, name: ' ' }), "line 4: '/name' must have a visible character, not only white space (got ' ')");
  });

  it("a select field's options: over the limit, a name the API would not take, two differing only in case", async () => {
    const select = { ...field, fieldKind: 'select', options: ['S', 'M', 'L'] };
    const values = (names: string[]) => names.map((name, i) => ({ id: u(200 + i), name, color: 'blue' }));
    const many = Array.from({ length: 201 }, (_, i) => `Size ${i}`);
    await expectRefused(records({ ...select, options: many }), "line 4: '/options' must have at most 200 items (got 201)");
    await expectRefused(records({ ...select, values: values(many) }), "line 4: '/values' must have at most 200 items (got 201)");
    await expectRefused(records({ ...select, options: ['S', 'x'.repeat(256)] }), "line 4: '/options/1/name' must be at most 255 characters long (got 256)");
    await expectRefused(
      records({ ...select, values: values(['Small', 'Large', 'small']) }),
      "line 4: '/values/2/name' is 'small', and '/values/0/name' is 'Small': a field's options have names unique regardless of case",
    );
  });

  it("a tag value's name", async () => {
    await expectRefused(records({ ...tagValue, name: '' }), "line 5: '/name' must not be empty");
  });

  it("a comment's content", async () => {
    await expectRefused(records({ ...comment, content: 'x'.repeat(7001) }), "line 10: '/content' must be at most 7000 characters long (got 7001)");
  });

  it("a webhook's name, events or URL", async () => {
    await expectRefused(records({ ...webhook, name: '  ' }), "line 11: '/name' must have a visible character, not only white space (got '  ')");
    await expectRefused(records({ ...webhook, events: [] }), "line 11: '/events' must not be empty");
    await expectRefused(
      records({ ...webhook, events: ['note.created', 'note.created'] }),
      "line 11: '/events/1/eventType' is 'note.created', which is listed twice",
    );
    await expectRefused(
      records({ ...webhook, url: `https://hooks.example.com/${'x'.repeat(1024)}` }),
      "line 11: '/url' must be at most 1024 characters long (got 1050)",
    );
    // The receiver as a subscription's creation holds it, without DNS: scheme, and an address named in the URL itself.
    for (const [url, why] of [
      ['javascript:alert(1)', 'the URL must use https, not javascript'],
      ['', 'the URL is not an absolute URL'],
      ['https://169.254.169.254/latest', "the URL's host must be publicly reachable: 169.254.169.254"],
      ['https://[::ffff:0:a9fe:a9fe]/', "the URL's host must be publicly reachable: ::ffff:0:a9fe:a9fe"],
    ])
      await expectRefused(records({ ...webhook, url }), `line 11: '/url' is refused: ${why}`);
  });
});

describe('restore refuses two records of a name the API keeps to one, writing nothing', () => {
  const team = (n: number, name: string, handle: string) => ({ kind: 'team', id: u(90 + n), name, handle, createdAt: AT, updatedAt: AT });
  const member = (n: number, email: string) => ({ kind: 'member', id: u(92 + n), email, name: 'Ann', role: 'maker', active: true, createdAt: AT });
  const field = (n: number, entityType: string, name: string) => ({ kind: 'customField', id: u(94 + n), entityType, name, fieldKind: 'text', createdAt: AT });
  const tagValue = (n: number, name: string) => ({ kind: 'tagValue', id: u(96 + n), name, color: 'red', createdAt: AT });

  it('one name on two types, or names that differ otherwise than in case, restore', async () => {
    const { path } = await exportFile([
      team(0, 'Web', 'web'),
      team(1, 'Web app', 'webapp'),
      member(0, 'ann@example.com'),
      member(1, 'anne@example.com'),
      field(0, 'feature', 'Effort'),
      field(1, 'product', 'Effort'),
      tagValue(0, 'core'),
      tagValue(1, 'core2'),
      ...goodRecords(),
    ]);
    const restored = await restoreWorkspace(path, { name: 'Names by hand', adminEmail: 'admin@example.com' });
    expect(restored.counts).toMatchObject({ team: 2, member: 2, customField: 2, tagValue: 2 });
  });

  it('two teams of one name or one handle', async () => {
    await expectRefused(
      [team(0, 'Web', 'web'), team(1, 'WEB', 'web2'), ...goodRecords()],
      "line 3: name: another team named 'Web' is on line 2; team names and handles are unique (names are compared case-insensitively)",
    );
    await expectRefused(
      [team(0, 'Web', 'web'), team(1, 'Web app', 'web'), ...goodRecords()],
      "line 3: handle: another team with the handle 'web' is on line 2; team names and handles are unique",
    );
  });

  it('two members of one e-mail', async () => {
    await expectRefused(
      [member(0, 'ann@example.com'), member(1, 'Ann@Example.com'), ...goodRecords()],
      "line 3: email: another member with the e-mail 'ann@example.com' is on line 2 (e-mails are compared lower-cased)",
    );
  });

  it('two custom fields of one name on one type', async () => {
    await expectRefused(
      [field(0, 'feature', 'Effort'), field(1, 'feature', 'effort'), ...goodRecords()],
      "line 3: name: another custom field named 'Effort' on feature is on line 2 (names are compared case-insensitively)",
    );
  });

  it('two tag values of one name', async () => {
    await expectRefused(
      [tagValue(0, 'core'), tagValue(1, 'Core'), ...goodRecords()],
      "line 3: name: another tag value named 'core' is on line 2 (names are compared case-insensitively)",
    );
  });
});
