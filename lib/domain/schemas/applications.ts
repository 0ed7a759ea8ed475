// Server-to-server applications and their public keys, as the admin endpoints
// ({app_url}/oauth2/applications) and the admin CLI take and answer them.
import * as z from 'zod/mini';
import { DateTime, Uuid } from './common.ts';
import { canonicalScope, SCOPE_ALIASES, SCOPES, type Scope } from '../scopes.ts';

export const MAX_APPLICATION_NAME = 255;

/** A scope name, an alias resolved (`entities:write` is `write:entities`). */
const ScopeName = z.pipe(
  z.string().check(z.describe(`One of ${SCOPES.join(', ')} (alias: ${Object.keys(SCOPE_ALIASES).join(', ')})`)),
  z.transform((name, ctx): Scope => {
    const scope = canonicalScope(name);
    if (scope) return scope;
    ctx.issues.push({ code: 'custom', message: `'${name.slice(0, 100)}' is not a scope; the scopes are ${SCOPES.join(', ')}.`, input: name });
    return z.NEVER;
  }),
);

const MAX_SCOPE_NAMES = SCOPES.length + Object.keys(SCOPE_ALIASES).length;
/** A list of scopes, each kept once. */
const scopeList = (min: number) => z.pipe(z.array(ScopeName).check(z.minLength(min), z.maxLength(MAX_SCOPE_NAMES)), z.transform((scopes) => [...new Set(scopes)]));

/** A registration; default scopes, when given, lie within the allowed ones (omitted: all of them). */
export const CreateApplicationBody = z
  .pipe(
    z.strictObject({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_APPLICATION_NAME)),
      scopes: scopeList(1).check(z.describe('The scopes its tokens may carry')),
      defaultScopes: z.optional(scopeList(0)).check(z.describe('Granted when an assertion names no scope; all of `scopes` when omitted')),
    }),
    z.transform((v, ctx) => {
      const defaults = v.defaultScopes ?? v.scopes;
      const beyond = defaults.findIndex((s) => !v.scopes.includes(s));
      if (beyond !== -1) {
        ctx.issues.push({ code: 'custom', message: `is '${defaults[beyond]}', which is not among the application's scopes`, path: ['defaultScopes', beyond], input: defaults[beyond] });
        return z.NEVER;
      }
      return { name: v.name, scopes: v.scopes, defaultScopes: defaults };
    }),
  )
  .check(z.meta({ id: 'CreateApplicationBody' }));

export type ApplicationInput = z.output<typeof CreateApplicationBody>;

export const AddKeyBody = z
  .strictObject({ publicKey: z.string().check(z.minLength(1), z.maxLength(64 * 1024), z.describe('RSA public key, PEM (SPKI or PKCS#1), 2048 to 8192 bits')) })
  .check(z.meta({ id: 'AddKeyBody' }));

const ScopeEnum = z.enum(SCOPES);

export const ApplicationKey = z
  .strictObject({
    id: Uuid,
    fingerprint: z.string().check(z.describe('SHA-256 of the key (SPKI DER), base64url')),
    bits: z.int(),
    createdAt: DateTime,
  })
  .check(z.meta({ id: 'ApplicationKey' }));

export const Application = z
  .strictObject({
    clientId: Uuid.check(z.describe("The assertions' iss")),
    name: z.string(),
    scopes: z.array(ScopeEnum),
    defaultScopes: z.array(ScopeEnum),
    keys: z.array(ApplicationKey),
    createdAt: DateTime,
  })
  .check(z.meta({ id: 'Application' }));

export const ApplicationList = z.strictObject({ data: z.array(Application) }).check(z.meta({ id: 'ApplicationList' }));

/** Client ids and key ids are the service's uuids, but any text finds nothing (404) rather than a 400. */
export const ApplicationPath = z.strictObject({ clientId: z.string() });
export const ApplicationKeyPath = z.strictObject({ clientId: z.string(), keyId: z.string() });
