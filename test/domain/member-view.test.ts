// A member in Productboard's shape (lib/domain/member-view.ts), checked against the response schema
// of Productboard's getMember with the compatibility suite's validator.
import { describe, expect, it } from 'vitest';
import { memberView, REDACTED } from '#lib/domain/member-view.ts';
import { validateResponse } from '../compat/validate.ts';

const urls = { base: 'https://api.example.test/v2', web: 'https://app.example.test' };
const ada = { id: '0b6f3c1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', email: 'ada@example.test', name: 'Ada', role: 'maker' as const, active: false };

describe('memberView', () => {
  it('with members:pii:read: name, e-mail as username, disabled from active, links self and html', () => {
    const view = memberView(urls, ada, { pii: true });
    expect(view).toEqual({
      id: ada.id,
      type: 'member',
      fields: { name: 'Ada', username: 'ada@example.test', email: 'ada@example.test', role: 'maker', disabled: true, invitationPending: false, teams: [] },
      links: { self: `https://api.example.test/v2/members/${ada.id}`, html: `https://app.example.test/members/${ada.id}` },
    });
    expect(validateResponse('getMember', 200, { data: view })).toEqual({ mismatches: [], needed: [], patchProblems: [] });
  });

  it('without it: name, username and e-mail read [redacted], the rest unchanged', () => {
    const view = memberView(urls, { ...ada, active: true }, { pii: false });
    expect(view.fields).toEqual({ name: REDACTED, username: REDACTED, email: REDACTED, role: 'maker', disabled: false, invitationPending: false, teams: [] });
    expect(validateResponse('getMember', 200, { data: view })).toEqual({ mismatches: [], needed: [], patchProblems: [] });
  });

  it("the validator does see a member that breaks Productboard's schema", () => {
    const { links: _links, ...broken } = memberView(urls, ada, { pii: true });
    expect(validateResponse('getMember', 200, { data: { ...broken, fields: { ...broken.fields, role: 'owner' } } }).mismatches.sort()).toEqual([
      '/data/fields/role: not one of "admin"|"maker"|"viewer"|"contributor"',
      '/data/links: required',
    ]);
  });
});
