// The pure derivation (lib/domain/events.ts) on typed changes: which events an item change makes,
// and — as important — which changes make none.
import { describe, expect, it } from 'vitest';
import { deriveEvents, eventId, type EntityState, type NoteState, type RelationState, type TableChange } from '#lib/domain/events.ts';

const BASE = 'https://api.example.com/v2';
const WS = '11111111-1111-4111-8111-111111111111';
const E = '22222222-2222-4222-8222-222222222222';
const N = '33333333-3333-4333-8333-333333333333';
const P = '44444444-4444-4444-8444-444444444444';

const entity = (over: Partial<EntityState> = {}): EntityState => ({ id: E, type: 'feature', parentId: P, fields: { name: 'Apple Pay' }, total: 0, ...over });
const note = (over: Partial<NoteState> = {}): NoteState => ({ id: N, type: 'textNote', fields: { name: 'Feedback' }, ...over });
const change = (c: Omit<TableChange, 'workspaceId' | 'changeId'>): TableChange => ({ workspaceId: WS, changeId: 'WS#x\nENT#y\n42', ...c }) as TableChange;
const types = (c: TableChange) => deriveEvents(c, BASE).map((e) => e.eventType);

describe('entity changes', () => {
  it('INSERT of a feature → one feature.created whose links.target is {base_url}/entities/{id}', () => {
    const events = deriveEvents(change({ kind: 'entity', before: undefined, after: entity() }), BASE);
    expect(events).toEqual([
      {
        id: eventId('WS#x\nENT#y\n42', 'feature.created'),
        workspaceId: WS,
        eventType: 'feature.created',
        orderingKey: E,
        payload: { id: E, eventType: 'feature.created', links: { target: `${BASE}/entities/${E}` } },
      },
    ]);
  });

  it('a subfeature is reported as a feature; products and components under their own names; customers make no events', () => {
    expect(types(change({ kind: 'entity', before: undefined, after: entity({ type: 'subfeature' }) }))).toEqual(['feature.created']);
    expect(types(change({ kind: 'entity', before: undefined, after: entity({ type: 'product' }) }))).toEqual(['product.created']);
    expect(types(change({ kind: 'entity', before: undefined, after: entity({ type: 'component' }) }))).toEqual(['component.created']);
    expect(types(change({ kind: 'entity', before: undefined, after: entity({ type: 'company' }) }))).toEqual([]);
    expect(types(change({ kind: 'entity', before: entity({ type: 'user' }), after: entity({ type: 'user', fields: { name: 'x' } }) }))).toEqual([]);
  });

  it('field and parent changes → *.updated naming the API fields (custom fields by uuid, parent for a move), sorted; a custom field also → hierarchy-entity.custom-field-value.updated without an id', () => {
    const cf = '55555555-5555-4555-8555-555555555555';
    const events = deriveEvents(
      change({
        kind: 'entity',
        before: entity({ fields: { name: 'A', tags: [{ name: 't' }] } }),
        after: entity({ parentId: N, fields: { name: 'B', tags: [{ name: 't' }], [cf]: 3 } }),
      }),
      BASE,
    );
    expect(events.map((e) => [e.eventType, e.payload.updatedAttributes])).toEqual([
      ['feature.updated', [cf, 'name', 'parent']],
      ['hierarchy-entity.custom-field-value.updated', [cf]],
    ]);
    expect(events[1]!.payload).toEqual({
      eventType: 'hierarchy-entity.custom-field-value.updated',
      links: { target: `${BASE}/entities/${E}` },
      updatedAttributes: [cf],
    });
    expect(events[1]!.orderingKey).toBe(E);
    // Only changes of a custom field make it, and only on the product hierarchy.
    expect(types(change({ kind: 'entity', before: entity({ fields: { name: 'A' } }), after: entity({ fields: { name: 'B' } }) }))).toEqual(['feature.updated']);
    expect(
      types(
        change({
          kind: 'entity',
          before: entity({ type: 'initiative', fields: { name: 'A' } }),
          after: entity({ type: 'initiative', fields: { name: 'A', [cf]: 1 } }),
        }),
      ),
    ).toEqual(['initiative.updated']);
  });

  it('no *.updated for internal attributes or empty-to-empty: aggregates alone make only the score event', () => {
    expect(types(change({ kind: 'entity', before: entity({ fields: { name: 'A', description: '' } }), after: entity({ fields: { name: 'A' } }) }))).toEqual([]);
    const scored = deriveEvents(change({ kind: 'entity', before: entity({ total: 2 }), after: entity({ total: 5 }) }), BASE);
    expect(scored.map((e) => e.payload)).toEqual([
      { id: E, eventType: 'customer-score.updated', links: { target: `${BASE}/entities/${E}/score` }, updatedAttributes: ['score'], score: { old: 2, new: 5 } },
    ]);
    expect(types(change({ kind: 'entity', before: entity({ total: undefined }), after: entity({ total: 0 }) }))).toEqual([]);
  });

  it('the deleting mark → *.deleted once; later changes of the marked item and its REMOVE → nothing', () => {
    const marked = entity({ deleting: '2026-01-01T00:00:00.000Z', parentId: undefined });
    expect(types(change({ kind: 'entity', before: entity({ total: 4 }), after: { ...marked, total: 4 } }))).toEqual(['feature.deleted']);
    expect(types(change({ kind: 'entity', before: marked, after: { ...marked, total: 0 } }))).toEqual([]);
    expect(types(change({ kind: 'entity', before: marked, after: undefined }))).toEqual([]);
  });

  it('a REMOVE of an item never marked → *.deleted (the one moment readers lose it)', () => {
    expect(types(change({ kind: 'entity', before: entity({ type: 'product' }), after: undefined }))).toEqual(['product.deleted']);
  });
});

describe('planning entities and feature-release assignments', () => {
  it("initiatives, objectives, key results and releases under the names of Productboard's event types; release groups make none", () => {
    for (const [type, family] of [
      ['initiative', 'initiative'],
      ['objective', 'objective'],
      ['keyResult', 'key-result'],
      ['release', 'release'],
    ] as const) {
      const e = entity({ type, parentId: undefined, total: undefined });
      expect(types(change({ kind: 'entity', before: undefined, after: e }))).toEqual([`${family}.created`]);
      const renamed = deriveEvents(change({ kind: 'entity', before: e, after: { ...e, fields: { name: 'Other' } } }), BASE);
      expect(renamed.map((x) => x.payload)).toEqual([
        { id: E, eventType: `${family}.updated`, links: { target: `${BASE}/entities/${E}` }, updatedAttributes: ['name'] },
      ]);
      expect(types(change({ kind: 'entity', before: e, after: { ...e, deleting: 'now' } }))).toEqual([`${family}.deleted`]);
    }
    const group = entity({ type: 'releaseGroup', parentId: undefined, total: undefined });
    expect(types(change({ kind: 'entity', before: undefined, after: group }))).toEqual([]);
    expect(types(change({ kind: 'entity', before: group, after: { ...group, fields: { name: 'Q3' } } }))).toEqual([]);
  });

  it('a feature (or subfeature) linked to a release or unlinked → one feature-release-assignment.updated from the feature side, without an id', () => {
    const R = '66666666-6666-4666-8666-666666666666';
    const side: RelationState = { entityId: E, entityType: 'feature', type: 'link', targetId: R, targetType: 'release' };
    const mirror: RelationState = { entityId: R, entityType: 'release', type: 'link', targetId: E, targetType: 'feature' };
    const made = deriveEvents(change({ kind: 'relation', before: undefined, after: side }), BASE);
    expect(made.map((e) => [e.orderingKey, e.payload])).toEqual([
      [E, { eventType: 'feature-release-assignment.updated', links: { target: `${BASE}/entities/${E}/relationships?type=link&target%5Bid%5D=${R}` } }],
    ]);
    expect(types(change({ kind: 'relation', before: side, after: undefined }))).toEqual(['feature-release-assignment.updated']);
    expect(types(change({ kind: 'relation', before: undefined, after: { ...side, entityType: 'subfeature' } }))).toEqual([
      'feature-release-assignment.updated',
    ]);
    // The release's side, other relations and other pairs make none.
    expect(types(change({ kind: 'relation', before: undefined, after: mirror }))).toEqual([]);
    expect(types(change({ kind: 'relation', before: undefined, after: { ...side, targetType: 'objective' } }))).toEqual([]);
    expect(types(change({ kind: 'relation', before: undefined, after: { ...side, type: 'isBlockedBy', targetType: 'feature' } }))).toEqual([]);
    expect(types(change({ kind: 'relation', before: undefined, after: { ...side, entityType: 'component' } }))).toEqual([]);
    expect(types(change({ kind: 'relation', before: side, after: side }))).toEqual([]);
  });
});

describe('note and link changes', () => {
  it('note created, fields and customer updated, deleted (by mark or by a direct delete)', () => {
    expect(types(change({ kind: 'note', before: undefined, after: note() }))).toEqual(['note.created']);
    const updated = deriveEvents(
      change({ kind: 'note', before: note(), after: note({ fields: { name: 'Other' }, customer: { id: E, type: 'company' } }) }),
      BASE,
    );
    expect(updated.map((e) => e.payload)).toEqual([
      { id: N, eventType: 'note.updated', links: { target: `${BASE}/notes/${N}` }, updatedAttributes: ['customer', 'name'] },
    ]);
    expect(types(change({ kind: 'note', before: note(), after: note({ deleting: 'now' }) }))).toEqual(['note.deleted']);
    expect(types(change({ kind: 'note', before: note({ deleting: 'now' }), after: undefined }))).toEqual([]);
    expect(types(change({ kind: 'note', before: note(), after: undefined }))).toEqual(['note.deleted']);
  });

  it('link INSERT → insight.created, REMOVE → insight.deleted, with links {feature, note}; a re-rate → nothing', () => {
    const link = { noteId: N, entityId: E };
    const created = deriveEvents(change({ kind: 'link', before: undefined, after: link }), BASE);
    expect(created.map((e) => [e.orderingKey, e.payload])).toEqual([
      [N, { id: N, eventType: 'insight.created', links: { feature: `${BASE}/entities/${E}`, note: `${BASE}/notes/${N}` } }],
    ]);
    expect(types(change({ kind: 'link', before: link, after: undefined }))).toEqual(['insight.deleted']);
    expect(types(change({ kind: 'link', before: link, after: link }))).toEqual([]);
  });

  it('event ids are msg_ + 32 hex, equal for the same change and type, different otherwise', () => {
    const a = eventId('k\n1', 'note.created');
    expect(a).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(eventId('k\n1', 'note.created')).toBe(a);
    expect(eventId('k\n2', 'note.created')).not.toBe(a);
    expect(eventId('k\n1', 'note.updated')).not.toBe(a);
  });
});
