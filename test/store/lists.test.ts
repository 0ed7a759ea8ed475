// Filtered keyset lists in the store (lib/store/pages.ts) against DynamoDB Local: each filter
// answered from the index that narrows it (children, owner, type, creation-time range) with the
// rest checked per record, pages that stop at the scan budget and resume, and walks that return
// every match exactly once, in order.
import { describe, expect, it } from 'vitest';
import { ENTITY_TYPES } from '#lib/domain/hierarchy.ts';
import { FEATURE_STATUSES } from '#lib/domain/statuses.ts';
import { updateEntity } from '#lib/store/entity-writes.ts';
import { setMemberActive } from '#lib/store/members.ts';
import { updateNote } from '#lib/store/notes.ts';
import { entitiesAfter, membersAfter, notesAfter, SCAN_BUDGET, type EntityQuery, type NoteQuery } from '#lib/store/pages.ts';
import { entity, memberRef, note, storeWorkspace, walk } from './support.ts';
import { seedEntities, seedNotes } from '../pagination/seed.ts';

const PLANNED = FEATURE_STATUSES[2];
const names = (records: Array<{ fields: Record<string, unknown> }>) => records.map((r) => r.fields.name);
const entityNames = async (ws: string, query: EntityQuery) => names((await walk((after, n) => entitiesAfter(ws, query, after, n), 100)).records);
const noteNames = async (ws: string, query: NoteQuery) => names((await walk((after, n) => notesAfter(ws, query, after, n), 100)).records);

describe('entity lists', () => {
  it('children of a parent of one type: exactly that component’s features, in the order they joined it', async () => {
    const { ws } = await storeWorkspace();
    const payments = await entity(ws, 'product', 'Payments');
    const checkout = await entity(ws, 'component', 'Checkout', { parent: payments.id });
    const wallets = await entity(ws, 'component', 'Wallets', { parent: payments.id });
    await entity(ws, 'feature', 'Apple Pay', { parent: checkout.id });
    await entity(ws, 'component', 'Nested', { parent: checkout.id });
    await entity(ws, 'feature', 'Google Pay', { parent: checkout.id });
    await entity(ws, 'feature', 'Refunds', { parent: wallets.id });
    expect(await entityNames(ws, { types: ['feature'], parentIds: [checkout.id] })).toEqual(['Apple Pay', 'Google Pay']);
    expect(await entityNames(ws, { types: [...ENTITY_TYPES], parentIds: [checkout.id] })).toEqual(['Apple Pay', 'Nested', 'Google Pay']);
    expect(await entityNames(ws, { types: ['feature'], parentIds: [checkout.id, wallets.id] })).toEqual(['Apple Pay', 'Google Pay', 'Refunds']);
    // A parent that is not there (or another workspace's) is a filter that matches nothing.
    const other = await storeWorkspace();
    expect(await entityNames(other.ws, { types: ['feature'], parentIds: [checkout.id] })).toEqual([]);
  });

  it('owner: the owner index follows create, a change of owner and clearing it', async () => {
    const { ws, admin, member } = await storeWorkspace();
    const maker = await member();
    const product = await entity(ws, 'product', 'Mine', { fields: { owner: memberRef(admin) } });
    const feature = await entity(ws, 'feature', 'Also mine', { parent: product.id, fields: { owner: memberRef(admin) } });
    await entity(ws, 'feature', 'Theirs', { parent: product.id, fields: { owner: memberRef(maker) } });
    await entity(ws, 'feature', 'Nobody’s', { parent: product.id });
    const all = [...ENTITY_TYPES];
    expect(await entityNames(ws, { types: all, ownerIds: [admin.id] })).toEqual(['Mine', 'Also mine']);
    expect(await entityNames(ws, { types: ['feature'], ownerIds: [admin.id] })).toEqual(['Also mine']);
    expect(await entityNames(ws, { types: all, ownerIds: [admin.id, maker.id] })).toEqual(['Mine', 'Also mine', 'Theirs']);
    await updateEntity(ws, feature.id, () => ({ values: { owner: memberRef(maker) } }));
    expect(await entityNames(ws, { types: all, ownerIds: [maker.id] })).toEqual(['Also mine', 'Theirs']);
    await updateEntity(ws, product.id, () => ({ values: { owner: null } }));
    expect(await entityNames(ws, { types: all, ownerIds: [admin.id] })).toEqual([]);
    expect(await entityNames(ws, { types: all, ownerIds: [] })).toEqual([]);
  });

  it('name (case-insensitive substring), status, archived and metadata source, alone and together', async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'Payments');
    await entity(ws, 'feature', 'Apple Pay', { parent: p.id, fields: { status: PLANNED } });
    await entity(ws, 'feature', 'apple pay refunds', { parent: p.id, fields: { status: PLANNED, archived: true } });
    await entity(ws, 'feature', 'Google Pay', { parent: p.id, metadata: { source: { system: 'jira', recordId: 'J-1' } } });
    await entity(ws, 'feature', 'Pineapple', { parent: p.id, metadata: { source: { system: 'jira', recordId: 'J-2' } } });
    const features = { types: ['feature'] as const };
    expect(await entityNames(ws, { ...features, name: 'APPLE pay' })).toEqual(['Apple Pay', 'apple pay refunds']);
    expect(await entityNames(ws, { ...features, name: 'apple' })).toEqual(['Apple Pay', 'apple pay refunds', 'Pineapple']);
    expect(await entityNames(ws, { ...features, statusIds: [PLANNED.id] })).toEqual(['Apple Pay', 'apple pay refunds']);
    expect(await entityNames(ws, { ...features, archived: true })).toEqual(['apple pay refunds']);
    expect(await entityNames(ws, { ...features, archived: false, name: 'pay' })).toEqual(['Apple Pay', 'Google Pay']);
    expect(await entityNames(ws, { ...features, source: { system: 'jira' } })).toEqual(['Google Pay', 'Pineapple']);
    expect(await entityNames(ws, { ...features, source: { system: 'jira', recordId: 'J-2' } })).toEqual(['Pineapple']);
    expect(await entityNames(ws, { ...features, source: { recordId: 'J-3' } })).toEqual([]);
  });

  it('creation-time range bounds the GSI1 key (inclusive both ends); an empty range lists nothing', async () => {
    const { ws } = await storeWorkspace();
    const seeded = await seedEntities(ws, 10, { type: 'product' });
    const read = async (id: string) => (await entitiesAfter(ws, { types: ['product'], ids: [id] }, undefined, 2)).items[0]!.record.createdAt;
    const [third, seventh] = [await read(seeded[2]!.id), await read(seeded[6]!.id)];
    expect(await entityNames(ws, { types: ['product'], created: { from: third, to: seventh } })).toEqual([
      'product 2',
      'product 3',
      'product 4',
      'product 5',
      'product 6',
    ]);
    expect(await entityNames(ws, { types: ['product'], created: { from: seventh } })).toEqual(['product 6', 'product 7', 'product 8', 'product 9']);
    expect(await entityNames(ws, { types: ['product'], created: { to: third } })).toEqual(['product 0', 'product 1', 'product 2']);
    expect(await entityNames(ws, { types: ['product'], created: { from: seventh, to: third } })).toEqual([]);
    // The range and a cursor together: a walk in pages of 2 sees the same five.
    const paged = await walk((after, n) => entitiesAfter(ws, { types: ['product'], created: { from: third, to: seventh } }, after, n), 2);
    expect(names(paged.records)).toEqual(['product 2', 'product 3', 'product 4', 'product 5', 'product 6']);
    expect(paged.pages).toEqual([2, 2, 1]);
  });

  it('ids: read by key, kept by the other filters, in list order', async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P');
    const a = await entity(ws, 'feature', 'A', { parent: p.id });
    const b = await entity(ws, 'feature', 'B', { parent: p.id, fields: { archived: true } });
    expect(await entityNames(ws, { types: ['feature'], ids: [b.id, a.id, p.id, '00000000-0000-4000-8000-000000000000'] })).toEqual(['A', 'B']);
    expect(await entityNames(ws, { types: ['feature'], ids: [b.id, a.id], archived: false })).toEqual(['A']);
  });

  it(`a rare match: each read examines at most ${SCAN_BUDGET} items, ends the page early with a position to resume from, and the walk still finds every match once`, async () => {
    const { ws } = await storeWorkspace();
    const count = SCAN_BUDGET + 250;
    await seedEntities(ws, count, { fields: (i) => ({ name: i === 40 || i === count - 10 ? `needle ${i}` : `hay ${i}` }) });
    const first = await entitiesAfter(ws, { types: ['feature'], name: 'needle' }, undefined, 101);
    expect(names(first.items.map((i) => i.record))).toEqual(['needle 40']);
    expect(first.resume).toBeDefined();
    const rest = await entitiesAfter(ws, { types: ['feature'], name: 'needle' }, first.resume, 101);
    expect(names(rest.items.map((i) => i.record))).toEqual([`needle ${count - 10}`]);
    expect(rest.resume).toBeUndefined();
    const walked = await walk((after, n) => entitiesAfter(ws, { types: ['feature'], name: 'needle' }, after, n), 100);
    expect(names(walked.records)).toEqual(['needle 40', `needle ${count - 10}`]);
    expect(walked.pages).toEqual([1, 1]);
  }, 60_000);

  it('several partitions sharing the budget (each stops at half of it): a filtered walk across types returns every match once, in one order', async () => {
    const { ws } = await storeWorkspace();
    const size = SCAN_BUDGET / 2 + 150;
    const features = await seedEntities(ws, size, { type: 'feature', fields: (i) => ({ name: i % 37 === 0 ? `match f${i}` : `f${i}` }) });
    const products = await seedEntities(ws, size, { type: 'product', fields: (i) => ({ name: i % 41 === 0 ? `match p${i}` : `p${i}` }) });
    const expected = [...features.map((f, i) => ({ ...f, i, name: `f${i}` })), ...products.map((p, i) => ({ ...p, i, name: `p${i}` }))];
    const all = await walk((after, n) => entitiesAfter(ws, { types: ['feature', 'product'], name: 'match' }, after, n), 40);
    // The features were seeded first: the first read stops in the features' partition with most
    // products unread, and the page ends there, short of its limit.
    expect(all.pages[0]).toBeLessThan(40);
    const got = names(all.records);
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort()).toEqual(
      expected
        .filter((e) => (e.type === 'feature' ? e.i % 37 === 0 : e.i % 41 === 0))
        .map((e) => `match ${e.name}`)
        .sort(),
    );
    const positions = all.records.map((r) => `${r.createdAt}#${r.id}`);
    expect(positions).toEqual([...positions].sort());
  }, 60_000);
});

// Notes are listed newest first (by note id where links or customers narrow the read).
describe('note lists', () => {
  it('owner (owner index), creator, processed, archived, tags, text, source: each filter, and after an update', async () => {
    const { ws, admin, member } = await storeWorkspace();
    const maker = await member();
    const a = await note(ws, 'Wants Apple Pay', {
      fields: { owner: memberRef(admin), creator: memberRef(maker), tags: [{ name: 'Mobile' }], content: '<p>On the WATCH</p>' },
    });
    await note(ws, 'Google Pay please', {
      fields: { owner: memberRef(maker), creator: memberRef(admin), processed: true },
      metadata: { source: { system: 'zendesk', recordId: 't-1' } },
    });
    await note(ws, 'Chat', {
      type: 'conversationNote',
      fields: {
        creator: memberRef(admin),
        archived: true,
        content: [{ externalId: 'm1', authorType: 'customer', content: 'apple watch?', timestamp: '2030-01-01T00:00:00Z' }],
      },
    });
    expect(await noteNames(ws, { ownerIds: [admin.id] })).toEqual(['Wants Apple Pay']);
    expect(await noteNames(ws, { ownerIds: [maker.id] })).toEqual(['Google Pay please']);
    expect(await noteNames(ws, { creatorIds: [admin.id] })).toEqual(['Chat', 'Google Pay please']);
    expect(await noteNames(ws, { processed: true })).toEqual(['Google Pay please']);
    expect(await noteNames(ws, { processed: false })).toEqual(['Chat', 'Wants Apple Pay']);
    expect(await noteNames(ws, { archived: true })).toEqual(['Chat']);
    expect(await noteNames(ws, { tags: ['mobile', 'other'] })).toEqual(['Wants Apple Pay']);
    expect(await noteNames(ws, { text: 'watch' })).toEqual(['Chat', 'Wants Apple Pay']);
    expect(await noteNames(ws, { types: ['conversationNote'] })).toEqual(['Chat']);
    expect(await noteNames(ws, { sources: [{ system: 'jira' }, { recordId: 't-1' }] })).toEqual(['Google Pay please']);
    await updateNote(ws, a.id, () => ({ values: { owner: memberRef(maker) } }));
    expect(await noteNames(ws, { ownerIds: [maker.id] })).toEqual(['Google Pay please', 'Wants Apple Pay']);
    expect(await noteNames(ws, { ownerIds: [admin.id] })).toEqual([]);
  });

  it('created and updated ranges; linked entities and customers from GSI2, a note linked to two of them once', async () => {
    const { ws } = await storeWorkspace();
    const p = await entity(ws, 'product', 'P');
    const f = await entity(ws, 'feature', 'F', { parent: p.id });
    const acme = await entity(ws, 'company', 'Acme');
    const first = await note(ws, 'first', { links: [p.id, f.id], customer: acme.id });
    const second = await note(ws, 'second', { links: [f.id] });
    await note(ws, 'third');
    expect(await noteNames(ws, { created: { from: second.createdAt } })).toEqual(['third', 'second']);
    expect(await noteNames(ws, { created: { to: second.createdAt } })).toEqual(['second', 'first']);
    expect(await noteNames(ws, { updated: { to: '2000-01-01T00:00:00.000Z' } })).toEqual([]);
    await updateNote(ws, first.id, () => ({ values: { processed: true } }));
    const updated = (await notesAfter(ws, { ids: [first.id] }, undefined, 1)).items[0]!.record.updatedAt;
    expect(await noteNames(ws, { updated: { from: updated } })).toEqual(['first']);
    const linked = await noteNames(ws, { linkedTo: [p.id, f.id] });
    expect(linked.sort()).toEqual(['first', 'second']);
    expect(await noteNames(ws, { linkedTo: [p.id] })).toEqual(['first']);
    expect(await noteNames(ws, { linkedTo: [f.id], processed: false })).toEqual(['second']);
    expect(await noteNames(ws, { customerIds: [acme.id] })).toEqual(['first']);
    // The note with neither links nor a customer: left out by those filters above, found by the others.
    expect(await noteNames(ws, { processed: false })).toEqual(['third', 'second']);
  });

  it('a rare match among many notes resumes past the scan budget', async () => {
    const { ws } = await storeWorkspace();
    const count = SCAN_BUDGET + 100;
    await seedNotes(ws, count, { fields: (i) => ({ name: `note ${i}`, ...(i === count - 1 ? { processed: true } : {}) }) });
    const walked = await walk((after, n) => notesAfter(ws, { processed: true }, after, n), 100);
    // The newest note matches: found on the first page, and the walk goes on past the budget to the end.
    expect(names(walked.records)).toEqual([`note ${count - 1}`]);
    expect(walked.pages).toEqual([1, 0]);
  }, 60_000);
});

describe('member list', () => {
  it('oldest first; roles, a query on name or e-mail, deactivated members only when asked for', async () => {
    const { ws, admin, member } = await storeWorkspace();
    const maker = await member('maker');
    const viewer = await member('viewer');
    await setMemberActive(ws, viewer.email, false);
    const ids = async (filter: Parameters<typeof membersAfter>[1], limit = 100) =>
      (await walk((after, n) => membersAfter(ws, filter, after, n), limit)).records.map((m) => m.id);
    expect(await ids({})).toEqual([admin.id, maker.id]);
    expect(await ids({ state: 'any' }, 1)).toEqual([admin.id, maker.id, viewer.id]);
    expect(await ids({ roles: ['admin', 'viewer'], state: 'any' })).toEqual([admin.id, viewer.id]);
    expect(await ids({ state: 'disabled' })).toEqual([viewer.id]);
    expect(await ids({ query: maker.email.split('@')[0]!.toUpperCase() })).toEqual([maker.id]);
    expect(await ids({ emails: [maker.email.toUpperCase(), 'nobody@example.com'], state: 'any' })).toEqual([maker.id]);
    expect(await ids({ invitationPendingOnly: true, state: 'any' })).toEqual([]);
    // Another workspace's members are not listed.
    const other = await storeWorkspace();
    expect((await membersAfter(other.ws, { state: 'any' }, undefined, 10)).items.map((i) => i.record.id)).toEqual([other.admin.id]);
  });
});
