// admin import notes: a CSV or JSON-lines file of feedback into a workspace in use. A file with bad
// rows is refused row by row (line numbers) with nothing written, a dry run reports the same without
// writing, a good file's notes, customers and rated links go in with exact scores, and the same
// command again changes nothing.
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteEntity } from '#lib/store/cascade.ts';
import { getEntity } from '#lib/store/entities.ts';
import * as keys from '#lib/store/keys.ts';
import { setNoteCustomer, toNote } from '#lib/store/notes.ts';
import { queryAll } from '#lib/store/query.ts';
import { QUIET_WRITE, decodeStreamRecord } from '#lib/store/stream-records.ts';
import { verifyWorkspace } from '#lib/store/verify.ts';
import { importNotes } from '../../local/move/import-notes.ts';
import { entity, storeWorkspace } from '../store/support.ts';
import { FAULTS, type ProxiedCall } from '../support/fault-proxy.ts';
import { withFaults } from '../support/faults.ts';

let ws: string;
let applePay: string;
let acme: string;
const dir = tmpdir();
const file = (name: string) => join(dir, `move-notes-${process.pid}-${name}`);
const MAP = ['name=Title', 'content=Body', 'customer-email=Email', 'company-domain=Domain', 'links=Features', 'importance=Priority', 'date=Date'];

const notesOf = async () =>
  (await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': 'NOTE#' } }))
    .length;

beforeAll(async () => {
  ws = (await storeWorkspace()).ws;
  const checkout = await entity(ws, 'product', 'Checkout');
  const billing = await entity(ws, 'product', 'Billing');
  applePay = (await entity(ws, 'feature', 'Apple Pay', { parent: checkout.id })).id;
  await entity(ws, 'feature', 'Apple Pay', { parent: billing.id });
  await entity(ws, 'feature', 'Invoices', { parent: billing.id });
  acme = (await entity(ws, 'company', 'Acme', { fields: { domain: 'acme.example' } })).id;
  await entity(ws, 'user', 'Uma', { parent: acme, fields: { email: 'uma@acme.example' } });
});

afterAll(async () => {
  for (const f of [
    'bad.csv',
    'refused.csv',
    'good.csv',
    'good.jsonl',
    'quote.csv',
    'latin1.csv',
    'latin1.jsonl',
    'twice.jsonl',
    'columns.csv',
    'dates.csv',
    'extra.csv',
    'broken.csv',
    'cr.csv',
    'twice.csv',
  ])
    await rm(file(f), { force: true });
});

describe('import notes', () => {
  it('a file with bad rows is refused row by row, with line numbers, and nothing is written; a dry run reports the same and writes nothing', async () => {
    await writeFile(
      file('bad.csv'),
      [
        'Title,Body,Email,Domain,Features,Priority,Date',
        'Fine,ok,uma@acme.example,,Checkout > Apple Pay,critical,2025-04-01',
        'Ambiguous,,,,Apple Pay,important,',
        ',no name,,,,,',
        '"Multi',
        'line title",body,nobody@acme.example,,Nowhere > Thing,urgent,yesterday',
      ].join('\n'),
    );
    const options = { workspace: ws, file: file('bad.csv'), map: MAP, createCustomers: false };
    const dry = await importNotes({ ...options, dryRun: true });
    expect(dry).toEqual({
      dryRun: true,
      workspace: ws,
      rows: 4,
      notes: 1,
      links: 1,
      customersCreated: 0,
      bad: [
        { line: 3, field: 'Features', reason: "the path 'Apple Pay' is ambiguous: 2 entities match it; give more of the path or the entity's id" },
        { line: 4, field: 'Title', reason: 'a note needs a name' },
        { line: 5, field: 'Priority', reason: "'urgent' is no importance; one of critical, important, nice to have, unknown, not important" },
        { line: 5, field: 'Date', reason: "'yesterday' is not a date (YYYY-MM-DD or an ISO 8601 time)" },
        { line: 5, field: 'Email', reason: 'no user has the e-mail nobody@acme.example (--create-customers creates one)' },
        { line: 5, field: 'Features', reason: "no product, component, feature or subfeature is at the path 'Nowhere > Thing'" },
      ],
    });
    await expect(importNotes({ ...options, dryRun: false })).rejects.toThrow(
      /^3 bad rows; nothing was written:\n {2}line 3: Features: the path 'Apple Pay' is ambiguous/,
    );
    expect(await notesOf()).toBe(0);
  });

  it('a good file: notes, new customers and rated links go in with exact scores; the same command again changes nothing', async () => {
    await writeFile(
      file('good.csv'),
      [
        'Title,Body,Email,Domain,Features,Priority,Date',
        `Need Apple Pay,"Line one`,
        `Line <two>",uma@acme.example,,Checkout > Apple Pay,critical,2025-04-01`,
        `Also Apple Pay,,uma@acme.example,,${applePay},nice to have,2025-04-02`,
        `Invoices too,,new@globex.example,globex.example,Billing > Invoices;Checkout > Apple Pay,important,2025-04-03T10:00:00Z`,
        `Anonymous,,,,Checkout,unknown,`,
      ].join('\n'),
    );
    const options = { workspace: ws, file: file('good.csv'), map: MAP, createCustomers: true, dryRun: false };
    const first = await importNotes(options);
    expect(first).toEqual({
      workspace: ws,
      rows: 4,
      notes: 4,
      links: 5,
      customersCreated: 2,
      resumed: false,
      linksAdded: 5,
      linksToEntitiesGone: 0,
      linksToNotesGone: 0,
    });
    expect(await notesOf()).toBe(4);
    // Uma's latest rating of Apple Pay is row 2's (nice to have, 1); the new user's is important (2).
    expect((await getEntity(ws, applePay))?.total).toBe(3);
    expect(await verifyWorkspace(ws, false)).toMatchObject({ mismatches: 0 });
    // Each note's copy of its links (what a page of notes shows) holds the links added afterwards.
    const invoices = (
      await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': 'NOTE#' } })
    )
      .map(toNote)
      .find((n) => n.fields.name === 'Invoices too')!;
    expect(invoices.linkCopy?.map((l) => [l.entityType, l.importance]).sort()).toEqual([
      ['feature', 'important'],
      ['feature', 'important'],
    ]);
    expect(invoices.linkCopy?.map((l) => l.entityId)).toContain(applePay);
    const again = await importNotes(options);
    expect(again).toMatchObject({ resumed: true, linksAdded: 0 });
    expect(await notesOf()).toBe(4);
    expect(await verifyWorkspace(ws, false)).toMatchObject({ mismatches: 0 });
    // The same file with another mapping (no importance column) is another import:
    // notes of its own, the first import's untouched, every score exact.
    const remapped = await importNotes({ ...options, map: MAP.filter((m) => !m.startsWith('importance=')) });
    expect(remapped).toMatchObject({ resumed: false, notes: 4, linksAdded: 5 });
    expect(await notesOf()).toBe(8);
    expect(invoices.linkCopy).toHaveLength(2);
    const notes = (
      await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.partition(ws), ':p': 'NOTE#' } })
    ).map(toNote);
    expect(notes.filter((n) => n.fields.name === 'Invoices too').map((n) => n.linkCopy?.length)).toEqual([2, 2]);
    expect(await verifyWorkspace(ws, false)).toMatchObject({ mismatches: 0 });
  });
});

describe('import notes refuses a file it would misread, writing nothing', () => {
  const options = (name: string, map = MAP) => ({ workspace: ws, file: file(name), map, createCustomers: true, dryRun: false });

  it('text after the closing quote of a CSV field', async () => {
    await writeFile(file('quote.csv'), ['Title,Body,Email,Domain,Features,Priority,Date', '"Broken quote"x,hello world,,,,,', 'Fine,ok,,,,,'].join('\n'));
    const before = await notesOf();
    await expect(importNotes(options('quote.csv'))).rejects.toThrow(
      `${file('quote.csv')} line 2: text after the closing quote of a field (a quote inside a quoted field is written twice: ""); nothing was written`,
    );
    expect(await notesOf()).toBe(before);
  });

  it('bytes that are not UTF-8, in a CSV or a JSON-lines file', async () => {
    const head = Buffer.from('Title,Body,Email,Domain,Features,Priority,Date\nFine,ok,,,,,\n');
    await writeFile(file('latin1.csv'), Buffer.concat([head, Buffer.from([0x43, 0x61, 0x66, 0xe9]), Buffer.from(',,,,,,\n')]));
    await writeFile(file('latin1.jsonl'), Buffer.concat([Buffer.from('{"Title":"Fine"}\n{"Title":"Caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const before = await notesOf();
    await expect(importNotes(options('latin1.csv'))).rejects.toThrow(
      `${file('latin1.csv')} line 3: not UTF-8 text (invalid bytes are refused, never replaced); nothing was written`,
    );
    await expect(importNotes(options('latin1.jsonl'))).rejects.toThrow(
      `${file('latin1.jsonl')} line 2: not UTF-8 text (invalid bytes are refused, never replaced); nothing was written`,
    );
    expect(await notesOf()).toBe(before);
  });

  it('a JSON-lines row that gives a column twice: refused with its line, as the API refuses such a body', async () => {
    await writeFile(file('twice.jsonl'), '{"Title":"Fine"}\n{"Title":"One","Title":"Other"}\n');
    const before = await notesOf();
    await expect(importNotes(options('twice.jsonl'))).rejects.toThrow(
      `${file('twice.jsonl')} line 2: The body gives the member 'Title' more than once; send each member once (a JSON reader keeps only one of them); nothing was written`,
    );
    expect(await notesOf()).toBe(before);
  });

  it('values the API would not store: a name without a visible character, content too long once written as HTML, a domain or an e-mail it refuses', async () => {
    await writeFile(
      file('refused.csv'),
      ['Title,Body,Email,Domain,Features,Priority,Date', `\u200b,,,,,,`, `Long,${'<'.repeat(30_000)},,,,,`, `Bad domain,,,x y z,,,`, `Fine,ok,,,,,`].join('\n'),
    );
    const before = await notesOf();
    const dry = await importNotes({ ...options('refused.csv'), dryRun: true });
    expect('bad' in dry && dry.bad).toEqual([
      { line: 2, field: 'Title', reason: "'/fields/name' must have a visible character, not only white space (got '\u200b')." },
      { line: 3, field: 'Body', reason: expect.stringMatching(/^as HTML, '\/fields\/content' must be at most 100000 characters long \(got 120007\)/) },
      { line: 4, field: 'Domain', reason: expect.stringMatching(/^'\/fields\/domain' must be a domain name/) },
    ]);
    await expect(importNotes(options('refused.csv'))).rejects.toThrow(/^3 bad rows; nothing was written/);
    expect(await notesOf()).toBe(before);
  });

  it("a date no calendar has, or one later than the import: a rating dated then would stay its customer's latest for good, and no export would hold it", async () => {
    const tomorrow = new Date(Date.now() + 20 * 60 * 60 * 1000).toISOString().slice(0, 10);
    await writeFile(
      file('dates.csv'),
      [
        'Title,Body,Email,Domain,Features,Priority,Date',
        'Late,,,,,,9999-12-31',
        'No such day,,,,,,2025-02-30',
        'No such hour,,,,,,2025-02-03T25:00Z',
        'Early year,,,,,,0050-06-01',
        `A time zone ahead,,,,,,${tomorrow}`,
      ].join('\n'),
    );
    const before = await notesOf();
    const dry = await importNotes({ ...options('dates.csv'), dryRun: true });
    expect('bad' in dry && dry.bad).toEqual([
      {
        line: 2,
        field: 'Date',
        reason: expect.stringMatching(/^'9999-12-31' is later than the import \(it began at .*, and a day is allowed for clocks and time zones\)$/),
      },
      { line: 3, field: 'Date', reason: "'2025-02-30' is no day of the calendar" },
      { line: 4, field: 'Date', reason: "'2025-02-03T25:00Z' is not a date (YYYY-MM-DD or an ISO 8601 time)" },
    ]);
    await expect(importNotes(options('dates.csv'))).rejects.toThrow(/^3 bad rows; nothing was written/);
    expect(await notesOf()).toBe(before);
  });

  it('a CSV row of more or fewer fields than the header: the rest would be lost, or a line broken in two read as two rows', async () => {
    await writeFile(file('extra.csv'), ['Title,Body', 'Fine,ok', 'Comma,hello, world'].join('\r\n'));
    await writeFile(file('broken.csv'), ['Title,Body', 'Fine,ok', 'Broken,line one', 'line two'].join('\n'));
    const before = await notesOf();
    const map = ['name=Title', 'content=Body'];
    const uneven = (fields: number) =>
      `${fields} fields where the header has 2 (a field that holds a comma or a line break is quoted: "a, b"); nothing was written`;
    await expect(importNotes(options('extra.csv', map))).rejects.toThrow(`${file('extra.csv')} line 3: ${uneven(3)}`);
    await expect(importNotes(options('broken.csv', map))).rejects.toThrow(`${file('broken.csv')} line 4: ${uneven(1)}`);
    expect(await notesOf()).toBe(before);
  });

  it('lines ended by a lone CR, as old Mac files end them, are counted as lines in a refusal', async () => {
    await writeFile(file('cr.csv'), ['Title,Body', 'A,1', '"B,2', 'C,3'].join('\r'));
    await expect(importNotes(options('cr.csv', ['name=Title', 'content=Body']))).rejects.toThrow(
      `${file('cr.csv')} line 3: a quoted field is not closed; nothing was written`,
    );
  });

  it('a mapped column the header has twice', async () => {
    await writeFile(file('twice.csv'), ['Title,Body,Title', 'First,ok,Second'].join('\n'));
    await expect(importNotes(options('twice.csv', ['name=Title', 'content=Body']))).rejects.toThrow(
      `--map name=Title: ${file('twice.csv')} has the column Title more than once; rename one of them`,
    );
  });

  it('a mapped column the header does not have', async () => {
    await writeFile(file('columns.csv'), ['Title,Body', 'Fine,ok'].join('\n'));
    const before = await notesOf();
    await expect(importNotes(options('columns.csv', ['name=Title', 'content=body']))).rejects.toThrow(
      `--map content=body: ${file('columns.csv')} has no column body; its columns are Title, Body`,
    );
    expect(await notesOf()).toBe(before);
  });
});

describe('quiet bulk writes', () => {
  const record = (oldImage: Record<string, unknown> | undefined, newImage: Record<string, unknown> | undefined) => ({
    dynamodb: {
      SequenceNumber: '1',
      Keys: marshall({ pk: 'WS#w', sk: 'NOTE#n' }),
      ...(oldImage ? { OldImage: marshall(oldImage) as any } : {}),
      ...(newImage ? { NewImage: marshall(newImage) as any } : {}),
    },
  });
  const note = { kind: 'note', id: 'n', type: 'textNote', fields: { name: 'x' }, createdAt: 't', updatedAt: 't' };
  it('the event worker makes no change of a write that sets a quiet mark, and reports later writes that keep it', () => {
    expect(decodeStreamRecord(record(undefined, { ...note, [QUIET_WRITE]: 'run-1' }) as any)).toBeUndefined();
    expect(decodeStreamRecord(record({ ...note, [QUIET_WRITE]: 'run-1' }, { ...note, fields: { name: 'y' }, [QUIET_WRITE]: 'run-1' }) as any)).toMatchObject({
      kind: 'note',
      before: { fields: { name: 'x' } },
      after: { fields: { name: 'y' } },
    });
    expect(decodeStreamRecord(record({ ...note, [QUIET_WRITE]: 'run-1' }, undefined) as any)).toMatchObject({ kind: 'note', after: undefined });
    expect(decodeStreamRecord(record(undefined, note) as any)).toMatchObject({ kind: 'note' });
  });
});

describe('import notes in a workspace in use', () => {
  afterAll(async () => {
    for (const f of ['cap-one.csv', 'cap.csv', 'gone.csv', 'resumed.csv']) await rm(file(f), { force: true });
  });

  /** A workspace with a product, a feature and a company with a domain; rows of `n` notes of that company on the feature. */
  async function feedback(name: string, n: number) {
    const w = (await storeWorkspace()).ws;
    const product = await entity(w, 'product', 'Checkout');
    const feature = (await entity(w, 'feature', 'Wallets', { parent: product.id })).id;
    const company = (await entity(w, 'company', 'Initech', { fields: { domain: 'initech.example' } })).id;
    const path = file(name);
    await writeFile(
      path,
      ['Title,Domain,Features,Priority', ...Array.from({ length: n }, (_, i) => `Note ${i + 1},initech.example,${feature},important`)].join('\n'),
    );
    return {
      w,
      feature,
      company,
      options: {
        workspace: w,
        file: path,
        map: ['name=Title', 'company-domain=Domain', 'links=Features', 'importance=Priority'],
        createCustomers: false,
        dryRun: false,
      },
    };
  }
  const notesIn = async (w: string) =>
    (
      await queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.partition(w), ':p': 'NOTE#' } })
    ).map(toNote);

  it("rows that would take one customer's notes on one entity past 1000, counting those already there: refused row by row before anything is written, dry run included", async () => {
    const { w, options } = await feedback('cap.csv', 1000);
    await writeFile(file('cap-one.csv'), 'Title,Domain,Features,Priority\nFirst,initech.example,Checkout > Wallets,nice to have');
    await importNotes({ ...options, file: file('cap-one.csv') });
    const reason = 'Features: its customer would rate';
    const dry = await importNotes({ ...options, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, notes: 1000 });
    expect((dry as { bad: Array<{ line: number; reason: string }> }).bad.map((b) => [b.line, b.reason.replace(/[0-9a-f-]{36}/, 'F')])).toEqual([
      [1001, 'its customer would rate F through 1001 notes (1 already in the workspace); a customer rates one entity through at most 1000'],
    ]);
    await expect(importNotes(options)).rejects.toThrow(`1 bad row; nothing was written:\n  line 1001: ${reason}`);
    expect(await notesIn(w)).toHaveLength(1);
  });

  it('a customer deleted while its notes go in: they lose it, as the delete makes every note of the customer do, and their links count as anonymous', async () => {
    const { w, feature, company, options } = await feedback('gone.csv', 30);
    // The delete lands after the rows were checked and before the notes are written: its clean-up cannot see them.
    let deleted = false;
    const out = await withFaults(
      async (c) => {
        if (!deleted && c.operation === 'BatchWriteItem' && JSON.stringify(c.input).includes('"NOTE#')) {
          deleted = true;
          await deleteEntity(w, company);
        }
        return FAULTS.forward();
      },
      () => importNotes(options),
    );
    expect(deleted).toBe(true);
    expect(out).toMatchObject({ linksAdded: 30 });
    expect((await notesIn(w)).map((n) => n.customer)).toEqual(Array.from({ length: 30 }, () => undefined));
    expect((await getEntity(w, feature))?.total).toBe(30);
    expect(await verifyWorkspace(w, false)).toMatchObject({ mismatches: 0 });
  });

  it('run again after it stopped, it leaves the notes it had written as API clients changed them since', async () => {
    const { w, feature, options } = await feedback('resumed.csv', 40);
    const other = (await entity(w, 'company', 'Globex', { fields: { domain: 'globex.example' } })).id;
    // Stopped once the notes are in, before its checkpoint says so.
    const stopped = (c: ProxiedCall) =>
      c.operation === 'UpdateItem' && JSON.stringify(c.input).includes('"checkpoint"') ? FAULTS.validation() : FAULTS.forward();
    await expect(withFaults(stopped, () => importNotes(options))).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'One or more parameter values were invalid',
    });
    // It stopped there: every note written, none of their links yet (they go in with the aggregates, after the checkpoint).
    const written = await notesIn(w);
    expect(written).toHaveLength(40);
    expect((await getEntity(w, feature))?.total ?? 0).toBe(0);
    const first = written.find((n) => n.fields.name === 'Note 1')!;
    expect(first.customer).toBeDefined();
    await setNoteCustomer(w, first.id, { id: other, type: 'company', path: ['data'] });
    const again = await importNotes(options);
    expect(again).toMatchObject({ resumed: true, notes: 40, linksAdded: 40 });
    const after = await notesIn(w);
    expect(after).toHaveLength(40);
    expect(after.find((n) => n.id === first.id)?.customer).toEqual({ id: other, type: 'company' });
    // Initech's notes rate the feature important once, and Globex's (the one moved) once: 2 + 2.
    expect((await getEntity(w, feature))?.total).toBe(4);
    expect(await verifyWorkspace(w, false)).toMatchObject({ mismatches: 0 });
  });
});
