// The scope rule of the JWT bearer grant, as properties over any request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grantedScopes } from '#lib/domain/applications.ts';
import { ROLES, ROLE_SCOPES, SCOPES, canonicalScope } from '#lib/domain/scopes.ts';

const scopeSet = fc.subarray([...SCOPES]);
const names = fc.array(fc.oneof(fc.constantFrom(...SCOPES, 'entities:write'), fc.constantFrom('admin', '*', 'bogus', 'ENTITIES:READ')), { maxLength: 8 });

describe('granted scopes', () => {
  it('granted = (requested, or the defaults when omitted) ∩ allowed ∩ what the role permits, in canonical order', () => {
    fc.assert(
      fc.property(scopeSet, scopeSet, names, fc.boolean(), fc.constantFrom(...ROLES), (allowed, defaults, requested, omit, role) => {
        const app = { scopes: allowed, defaultScopes: defaults.filter((s) => allowed.includes(s)) };
        const granted = grantedScopes(omit ? undefined : requested.join(' '), app, role);
        const wanted = omit ? app.defaultScopes : requested.map(canonicalScope);
        for (const s of granted) {
          expect(allowed).toContain(s);
          expect(ROLE_SCOPES[role]).toContain(s);
          expect(wanted).toContain(s);
        }
        for (const s of SCOPES) if (wanted.includes(s) && allowed.includes(s) && ROLE_SCOPES[role].includes(s)) expect(granted).toContain(s);
        expect(granted).toEqual(SCOPES.filter((s) => granted.includes(s)));
      }),
    );
  });

  it('unknown names, wrong case and tabs grant nothing', () => {
    const app = { scopes: [...SCOPES], defaultScopes: [...SCOPES] };
    expect(grantedScopes('admin * ENTITIES:READ entities:read\tnotes:read', app, 'admin')).toEqual([]);
    expect(grantedScopes('  entities:read   notes:read ', app, 'admin')).toEqual(['entities:read', 'notes:read']);
  });
});
