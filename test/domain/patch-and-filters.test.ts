// The pure rules under the PATCH operations and the list filters (lib/domain/patch.ts,
// filters.ts, metadata.ts, relations.ts): no table, just values in and values out.
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '#lib/domain/errors.ts';
import { entityListRuleOf, entityPartsCheckOf, noteListRuleOf } from '#lib/domain/field-patch.ts';
import { entityMatches, memberMatches, nameMatches, noteMatches, utcInstant } from '#lib/domain/filters.ts';
import { mergeMetadata } from '#lib/domain/metadata.ts';
import { applyPatch, checkPatch, type PatchOp } from '#lib/domain/patch.ts';
import { mirrorOf, relationViolation } from '#lib/domain/relations.ts';
import { statusesNamed } from '#lib/domain/statuses.ts';

const itemKey = noteListRuleOf;
/** An operation at /data/patch/0 (where it sits in a request does not matter to these rules). */
const op = (o: Record<string, unknown>) => ({ ...o, path: ['data', 'patch', 0] }) as unknown as PatchOp;

describe('patch operations', () => {
  it('set replaces, clear gives null, addItems appends what is missing, removeItems drops by key, in order', () => {
    const current = { name: 'Old', tags: [{ name: 'a' }, { name: 'b' }], owner: { id: 'x', email: 'x@y.z' } };
    expect(
      applyPatch(
        current,
        [
          op({ op: 'set', field: 'name', value: 'New' }),
          op({ op: 'clear', field: 'owner' }),
          op({ op: 'addItems', field: 'tags', value: [{ name: 'c' }, { name: 'a' }] }),
          op({ op: 'removeItems', field: 'tags', value: [{ name: 'a' }, { name: 'zz' }] }),
        ],
        itemKey,
      ),
    ).toEqual({ name: 'New', owner: null, tags: [{ name: 'b' }, { name: 'c' }] });
    expect(applyPatch({}, [op({ op: 'addItems', field: 'tags', value: [{ name: 'x' }] })], itemKey)).toEqual({ tags: [{ name: 'x' }] });
    expect(applyPatch(current, [op({ op: 'removeItems', field: 'tags', value: [{ name: 'a' }, { name: 'b' }] })], itemKey)).toEqual({ tags: null });
  });

  it('conversation parts by externalId: the same part again changes nothing, another part under its externalId is refused at that item, a list may not outgrow its bound', () => {
    const part = (externalId: string, content = 'hi') => ({ externalId, authorType: 'customer', content, timestamp: '2030-01-01T00:00:00Z' });
    const current = { content: [part('a'), part('b')] };
    // A stored part's keys come back in any order: the same values are the same part.
    const reordered = { timestamp: '2030-01-01T00:00:00Z', content: 'hi', authorType: 'customer', externalId: 'a' };
    expect(applyPatch(current, [op({ op: 'addItems', field: 'content', value: [reordered, part('c')] })], itemKey)).toEqual({
      content: [part('a'), part('b'), part('c')],
    });
    expect(
      applyPatch(
        current,
        [op({ op: 'removeItems', field: 'content', value: [{ externalId: 'a' }] }), op({ op: 'addItems', field: 'content', value: [part('a', 'edited')] })],
        itemKey,
      ),
    ).toEqual({
      content: [part('b'), part('a', 'edited')],
    });
    const refusal = (ops: PatchOp[]) => {
      try {
        applyPatch(current, ops, itemKey);
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidInput);
        return { location: (e as InvalidInput).location, detail: (e as InvalidInput).detail };
      }
      return expect.fail('not refused');
    };
    expect(refusal([op({ op: 'addItems', field: 'content', value: [part('c'), part('b', 'other')] })])).toEqual({
      location: { pointer: '/data/patch/0/value/1' },
      detail:
        "Field 'content' already has an item 'b' with other values; remove it first ('removeItems' before this 'addItems', in the same patch) to replace it.",
    });
    const many = Array.from({ length: 49 }, (_, i) => part(`n${i}`));
    expect(refusal([op({ op: 'addItems', field: 'content', value: many })])).toEqual({
      location: { pointer: '/data/patch/0/value' },
      detail: "Field 'content' would hold 51 items after this operation; it holds at most 50.",
    });
    expect(applyPatch(current, [op({ op: 'addItems', field: 'content', value: many.slice(0, 48) })], itemKey).content).toHaveLength(50);
  });

  it('items on a field that is not a list → InvalidInput at the operation', () => {
    const err = (() => {
      try {
        applyPatch({}, [op({ op: 'addItems', field: 'name', value: ['x'] })], itemKey);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidInput);
    expect((err as InvalidInput).location).toEqual({ pointer: '/data/patch/0' });
  });

  it('set with clear, either with items, or a repeated set on one field → refused; addItems with removeItems → fine', () => {
    const refused = (ops: PatchOp[]) => expect(() => checkPatch(ops)).toThrow(InvalidInput);
    refused([op({ op: 'set', field: 'name', value: 'a' }), op({ op: 'clear', field: 'name' })]);
    refused([op({ op: 'set', field: 'tags', value: [] }), op({ op: 'addItems', field: 'tags', value: [] })]);
    refused([op({ op: 'removeItems', field: 'tags', value: [] }), op({ op: 'clear', field: 'tags' })]);
    refused([op({ op: 'set', field: 'name', value: 'a' }), op({ op: 'set', field: 'name', value: 'b' })]);
    expect(() =>
      checkPatch([
        op({ op: 'addItems', field: 'tags', value: [] }),
        op({ op: 'removeItems', field: 'tags', value: [] }),
        op({ op: 'set', field: 'name', value: 'a' }),
      ]),
    ).not.toThrow();
  });
});

describe("patch operations on a composite field's parts", () => {
  const current = { timeframe: { startDate: '2024-01-01', endDate: '2024-03-31', granularity: 'quarter' } };
  const apply = (values: Record<string, unknown>, ops: PatchOp[]) => applyPatch(values, ops, entityListRuleOf, entityPartsCheckOf);
  const refusal = (values: Record<string, unknown>, ops: PatchOp[]) => {
    try {
      apply(values, ops);
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidInput);
      return (e as InvalidInput).location;
    }
    return expect.fail('not refused');
  };

  it('a part sets or removes that property, the others kept; parts together make a timeframe where there was none', () => {
    expect(apply(current, [op({ op: 'set', field: 'timeframe', part: 'endDate', value: '2024-06-30' })])).toEqual({
      timeframe: { startDate: '2024-01-01', endDate: '2024-06-30', granularity: 'quarter' },
    });
    expect(apply(current, [op({ op: 'clear', field: 'timeframe', part: 'granularity' })])).toEqual({
      timeframe: { startDate: '2024-01-01', endDate: '2024-03-31' },
    });
    // Nothing to clear: nothing written.
    expect(apply({}, [op({ op: 'clear', field: 'timeframe', part: 'granularity' })])).toEqual({});
    expect(
      apply({}, [
        op({ op: 'set', field: 'timeframe', part: 'startDate', value: '2024-01-01' }),
        op({ op: 'set', field: 'timeframe', part: 'endDate', value: '2024-01-31' }),
      ]),
    ).toEqual({ timeframe: { startDate: '2024-01-01', endDate: '2024-01-31' } });
  });

  it('what the parts make is held to the whole rule: both dates, the end not before the start', () => {
    expect(refusal({}, [op({ op: 'set', field: 'timeframe', part: 'granularity', value: 'month' })])).toEqual({ pointer: '/data/patch/0/path' });
    expect(refusal(current, [op({ op: 'set', field: 'timeframe', part: 'startDate', value: '2024-04-01' })])).toEqual({ pointer: '/data/patch/0/value' });
  });

  it('the whole field with a part of it → refused; several parts, each once → fine', () => {
    const refused = (ops: PatchOp[]) => expect(() => checkPatch(ops)).toThrow(InvalidInput);
    refused([op({ op: 'set', field: 'timeframe', value: {} }), op({ op: 'clear', field: 'timeframe', part: 'granularity' })]);
    refused([op({ op: 'set', field: 'timeframe', part: 'endDate', value: 'x' }), op({ op: 'clear', field: 'timeframe' })]);
    refused([op({ op: 'set', field: 'timeframe', part: 'endDate', value: 'x' }), op({ op: 'set', field: 'timeframe', part: 'endDate', value: 'y' })]);
    expect(() =>
      checkPatch([
        op({ op: 'set', field: 'timeframe', part: 'startDate', value: 'x' }),
        op({ op: 'set', field: 'timeframe', part: 'endDate', value: 'y' }),
        op({ op: 'clear', field: 'timeframe', part: 'granularity' }),
      ]),
    ).not.toThrow();
  });
});

describe('filters', () => {
  const e = {
    id: 'e1',
    type: 'feature' as const,
    parentId: 'p1',
    fields: { name: 'Apple Pay', status: { id: statusesNamed('planned')[0]!.id, name: 'Planned' }, owner: { id: 'm1', email: 'a@b.c' } },
    metadata: { source: { system: 'jira', recordId: 'J-1' } },
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-02T00:00:00.000Z',
  };
  it('entities: every filter given must hold; an empty list of owners matches nothing', () => {
    expect(
      entityMatches(
        {
          types: ['feature'],
          parentIds: ['p1'],
          ownerIds: ['m1'],
          name: 'PLE p',
          statusIds: [statusesNamed('PLANNED')[0]!.id],
          archived: false,
          source: { system: 'jira' },
          created: { from: '2030-01-01T00:00:00.000Z' },
          updated: { to: '2030-01-02T00:00:00.000Z' },
        },
        e,
      ),
    ).toBe(true);
    expect(entityMatches({ ownerIds: [] }, e)).toBe(false);
    expect(entityMatches({ archived: true }, e)).toBe(false);
    expect(entityMatches({ source: { recordId: 'J-2' } }, e)).toBe(false);
    expect(entityMatches({ created: { from: '2030-01-01T00:00:00.001Z' } }, e)).toBe(false);
  });
  it('notes: creator, processed, tags (any, case-insensitive), text over name and conversation parts, customers', () => {
    const n = {
      id: 'n1',
      type: 'textNote' as const,
      fields: {
        name: 'Chat',
        creator: { id: 'm2', email: 'c@d.e' },
        processed: true,
        tags: [{ name: 'Mobile' }],
        content: [{ externalId: '1', authorType: 'customer', content: 'My Watch', timestamp: 't' }],
      },
      customer: { id: 'c1', type: 'user' as const },
      createdAt: 't',
      updatedAt: 't',
    };
    expect(
      noteMatches({ creatorIds: ['m2'], processed: true, archived: false, tags: ['x', 'MOBILE'], text: 'watch', customerIds: ['c1'], types: ['textNote'] }, n),
    ).toBe(true);
    expect(noteMatches({ text: 'nothing' }, n)).toBe(false);
    expect(noteMatches({ sources: [] }, n)).toBe(false);
  });
  it('members: deactivated ones only when asked for (with the others, or alone); query on name or e-mail; e-mails any case', () => {
    const m = { id: 'm', name: 'Ada Lovelace', email: 'ada@x.test', role: 'maker', active: false };
    expect(memberMatches({}, m)).toBe(false);
    expect(memberMatches({ state: 'any', query: 'LOVE', roles: ['maker'] }, m)).toBe(true);
    expect(memberMatches({ state: 'any', query: 'X.TEST' }, m)).toBe(true);
    expect(memberMatches({ state: 'disabled' }, m)).toBe(true);
    expect(memberMatches({ state: 'disabled' }, { ...m, active: true })).toBe(false);
    expect(memberMatches({ state: 'disabled', emails: ['ADA@x.test'] }, m)).toBe(true);
    expect(memberMatches({ state: 'disabled', emails: ['bob@x.test'] }, m)).toBe(false);
    expect(memberMatches({ state: 'any', invitationPendingOnly: true }, m)).toBe(false);
  });
  it('names match as case-insensitive substrings; date-times need a zone and become UTC instants', () => {
    expect([nameMatches('Apple Pay', 'apple PAY'), nameMatches('Apple Pay', 'pear'), nameMatches(undefined, 'a')]).toEqual([true, false, false]);
    expect(utcInstant('2030-01-01T02:00:00+02:00')).toBe('2030-01-01T00:00:00.000Z');
    expect(utcInstant('2030-01-01T00:00:00.5Z')).toBe('2030-01-01T00:00:00.500Z');
    // Years 0000–0099 are years like the others (0001-01-01 is the zero time of Go and .NET), and sort before every stored instant.
    expect(['0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '0099-12-31T23:59:59Z', '0096-02-29T00:00:00Z'].map(utcInstant)).toEqual([
      '0000-01-01T00:00:00.000Z',
      '0001-01-01T00:00:00.000Z',
      '0099-12-31T23:59:59.000Z',
      '0096-02-29T00:00:00.000Z',
    ]);
    expect(utcInstant('0001-01-01T00:00:00Z')! < '1970-01-01T00:00:00.000Z').toBe(true);
    expect(utcInstant('0099-02-29T00:00:00Z')).toBeUndefined();
    expect([utcInstant('2030-01-01'), utcInstant('2030-01-01T00:00:00'), utcInstant('2030-02-30T00:00:00Z'), utcInstant('yesterday')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  it('statuses by name, case-insensitively: one per set that has it', () => {
    expect(statusesNamed('PLANNED').map((s) => s.name)).toEqual(statusesNamed('planned').map((s) => s.name));
    expect(statusesNamed('planned').length).toBeGreaterThan(0);
    expect(statusesNamed('planned').every((s) => s.name === 'Planned')).toBe(true);
    expect(statusesNamed('Someday')).toEqual([]);
  });
});

describe('metadata and relations', () => {
  it('metadata merges key by key: a value sets, null removes, absent keeps; nothing left is no metadata', () => {
    const m = { source: { system: 'jira', recordId: 'J-1' } };
    expect(mergeMetadata(m, { source: { recordId: 'J-2', url: 'https://x.test' } })).toEqual({
      source: { system: 'jira', recordId: 'J-2', url: 'https://x.test' },
    });
    expect(mergeMetadata(m, { source: { system: null, recordId: null } })).toBeUndefined();
    expect(mergeMetadata(m, { source: null })).toBeUndefined();
    expect(mergeMetadata(m, {})).toEqual(m);
  });
  it('relations mirror, and join hierarchy entities only, never one with itself', () => {
    expect([mirrorOf('link'), mirrorOf('isBlockedBy'), mirrorOf('isBlocking')]).toEqual(['link', 'isBlocking', 'isBlockedBy']);
    expect(relationViolation({ id: 'a', type: 'feature' }, 'link', { id: 'b', type: 'product' })).toBeUndefined();
    expect(relationViolation({ id: 'a', type: 'feature' }, 'link', { id: 'a', type: 'feature' })).toMatch(/itself/);
    expect(relationViolation({ id: 'a', type: 'feature' }, 'isBlocking', { id: 'u', type: 'user' })).toMatch(/user/);
  });
});
