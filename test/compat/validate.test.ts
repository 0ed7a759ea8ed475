// The validation and named-patch mechanism on bodies built here (no HTTP): what counts as a
// mismatch, when a patch is needed, and a patch covering more than it declares.
import { describe, expect, it } from 'vitest';
import type { SchemaPatch } from './patches.ts';
import { patchApplicationProblems, validateResponse } from './validate.ts';

const ID = '3f2b6c1e-8a47-4d2b-9c1e-0a4b5c6d7e8f';
const entity = (extra: Record<string, unknown> = {}) => ({
  id: ID,
  type: 'feature',
  fields: { name: 'A' },
  links: { self: `https://api.example.com/v2/entities/${ID}`, html: null },
  ...extra,
});

describe('validating against Productboard’s schemas', () => {
  it('a list page without links.next passes only thanks to links-next-absent-on-last-page, which reports itself needed', () => {
    expect(validateResponse('listEntities', 200, { data: [entity()], links: {} })).toEqual({
      mismatches: [],
      needed: ['links-next-absent-on-last-page'],
      patchProblems: [],
    });
  });

  it('links.next: null (Productboard’s own last page) needs no patch', () => {
    expect(validateResponse('listEntities', 200, { data: [entity()], links: { next: null } })).toEqual({ mismatches: [], needed: [], patchProblems: [] });
  });

  it('a missing required property is one line at its location, array indices as *', () => {
    const noHtml = { ...entity(), links: { self: 'x' } };
    expect(validateResponse('listEntities', 200, { data: [noHtml, noHtml], links: { next: null } }).mismatches).toEqual(['/data/*/links/html: required']);
  });

  it('a failed anyOf is one line at its location, not one per alternative', () => {
    // Tags by name only, as this service answered them once: no multi-select value of Productboard's.
    const v = validateResponse('getEntity', 200, { data: entity({ fields: { name: 'A', tags: [{ name: 'a' }] } }) });
    expect(v.mismatches).toEqual(['/data/fields/tags: matches none of its anyOf alternatives']);
  });

  it('a status Productboard does not define for the operation is a mismatch; 204 takes no body', () => {
    expect(validateResponse('performNotesSearch', 404, { id: 'x', errors: [{ code: 'route.notFound', title: 't', detail: 'd' }] }).mismatches).toEqual([
      '/: 404 is not a status Productboard defines for performNotesSearch',
    ]);
    expect(validateResponse('deleteEntity', 204, undefined).mismatches).toEqual([]);
    expect(validateResponse('deleteEntity', 204, { data: {} }).mismatches).toEqual(['/: Productboard defines no body for 204']);
  });

  it('an event type of ours passes only thanks to webhook-event-types-ours; one that is no one’s is still a mismatch', () => {
    const webhook = (eventType: string) => ({
      data: {
        id: ID,
        type: 'webhook',
        createdAt: '2025-01-01T00:00:00.000Z',
        fields: { name: 'A', events: [{ eventType }], notification: { url: 'https://example.com/h', version: 1 } },
        links: { self: `https://api.example.com/v2/webhooks/${ID}` },
      },
    });
    expect(validateResponse('getWebhook', 200, webhook('customer-score.updated'))).toEqual({
      mismatches: [],
      needed: ['webhook-event-types-ours'],
      patchProblems: [],
    });
    expect(validateResponse('getWebhook', 200, webhook('feature.created'))).toEqual({ mismatches: [], needed: [], patchProblems: [] });
    expect(validateResponse('getWebhook', 200, webhook('team.created')).mismatches).toEqual([
      expect.stringMatching(/^\/data\/fields\/events\/\*\/eventType: not one of /),
    ]);
  });

  it('a needed patch whose mismatches lie outside its declared paths is reported', () => {
    const narrow: SchemaPatch = {
      name: 'test-narrow-links-next',
      reason: 'test',
      where: { documents: ['entities'], operations: ['listEntities'], statuses: [200], paths: ['/links/next'] },
      edits: [{ op: 'unrequire', at: '/components/schemas/ListLinks', property: 'next' }],
    };
    const page = { data: [entity({ relationships: { data: [], links: {} } })], links: {} };
    expect(validateResponse('listEntities', 200, page, [narrow])).toEqual({
      mismatches: [],
      needed: ['test-narrow-links-next'],
      patchProblems: ['patch test-narrow-links-next covers /data/*/relationships/links/next: required, outside its declared paths (/links/next)'],
    });
  });

  it('a patch applies only to the operations and statuses it names', () => {
    const elsewhere: SchemaPatch = {
      name: 'test-other-operation',
      reason: 'test',
      where: { documents: ['entities'], operations: ['listEntityRelationships'], statuses: [200], paths: ['/links/next'] },
      edits: [{ op: 'unrequire', at: '/components/schemas/ListLinks', property: 'next' }],
    };
    expect(validateResponse('listEntities', 200, { data: [], links: {} }, [elsewhere]).mismatches).toEqual(['/links/next: required']);
  });

  it('an edit that no longer finds what it changes is a problem of the patch', () => {
    const stale: SchemaPatch = {
      name: 'test-stale',
      reason: 'test',
      where: { documents: ['entities'], operations: '*', statuses: [200], paths: ['/links/self'] },
      edits: [{ op: 'unrequire', at: '/components/schemas/ResourceLinks', property: 'html' }],
    };
    expect(patchApplicationProblems([stale])).toEqual(["entities: Patch test-stale: the schema at /components/schemas/ResourceLinks does not require 'html'."]);
  });
});
