// OAuth applications — server-to-server (JWT bearer grant, public keys) and authorization code
// (redirect URIs, a client secret or PKCE) — as the admin endpoints ({app_url}/oauth2/applications)
// and the admin CLI take and answer them.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedString, strictObject } from './build.ts';
import { DateTime, Uuid } from './common.ts';
import { MAX_REDIRECT_URIS, redirectUriProblem } from '../redirect-uris.ts';
import { canonicalScope, SCOPE_ALIASES, SCOPES, type Scope } from '../scopes.ts';

const MAX_APPLICATION_NAME = 255;

/** A scope name, an alias resolved (`entities:write` is `write:entities`). */
const ScopeName = /* @__PURE__ */ (() =>
  z.pipe(
    doc(z.string(), `One of ${SCOPES.join(', ')} (alias: ${Object.keys(SCOPE_ALIASES).join(', ')})`),
    z.transform((name, ctx): Scope => {
      const scope = canonicalScope(name);
      if (scope) return scope;
      ctx.issues.push({ code: 'custom', message: `'${name.slice(0, 100)}' is not a scope; the scopes are ${SCOPES.join(', ')}.`, input: name });
      return z.NEVER;
    }),
  ))();

const MAX_SCOPE_NAMES = /* @__PURE__ */ (() => SCOPES.length + Object.keys(SCOPE_ALIASES).length)();
/** A list of scopes, each named once (an alias and its scope are the same scope). */
const scopeList = (min: number) =>
  z.pipe(
    checkedArray(ScopeName, z.minLength(min), z.maxLength(MAX_SCOPE_NAMES)),
    z.transform((scopes, ctx) => {
      const again = scopes.findIndex((s, i) => scopes.indexOf(s) < i);
      if (again < 0) return scopes;
      ctx.issues.push({ code: 'custom', message: `names '${scopes[again]}' a second time`, path: [again], input: scopes[again] });
      return z.NEVER;
    }),
  );

export const APPLICATION_TYPES = ['serverToServer', 'authorizationCode'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

type Issues = z.core.$RefinementCtx['issues'];
const refuse = (issues: Issues, path: PropertyKey[], message: string, input: unknown) => {
  issues.push({ code: 'custom', message, path, input });
  return z.NEVER;
};

/**
 * A registration; default scopes, when given, lie within the allowed ones (omitted: all of them).
 * Without a type it is serverToServer, so registrations written before the authorization code flow
 * keep working; redirect URIs and `public` belong to authorizationCode applications only.
 */
export const CreateApplicationBody = /* @__PURE__ */ (() =>
  doc(
    z.pipe(
      strictObject({
        type: doc(z.optional(z.enum(APPLICATION_TYPES)), 'serverToServer when omitted'),
        name: checkedString(z.trim(), z.minLength(1), z.maxLength(MAX_APPLICATION_NAME)),
        scopes: doc(scopeList(1), 'The scopes its tokens may carry'),
        defaultScopes: doc(z.optional(scopeList(0)), 'Granted when a request names no scope; all of `scopes` when omitted'),
        redirectUris: doc(
          z.optional(checkedArray(z.string(), z.maxLength(MAX_REDIRECT_URIS))),
          'authorizationCode only: the redirect URIs, matched exactly (at least one)',
        ),
        public: doc(z.optional(z.boolean()), 'authorizationCode only: a public client (no secret, PKCE required); false when omitted'),
      }),
      z.transform((v, ctx) => {
        const defaults = v.defaultScopes ?? v.scopes;
        const beyond = defaults.findIndex((s) => !v.scopes.includes(s));
        if (beyond !== -1)
          return refuse(ctx.issues, ['defaultScopes', beyond], `is '${defaults[beyond]}', which is not among the application's scopes`, defaults[beyond]);
        const common = { name: v.name, scopes: v.scopes, defaultScopes: defaults };
        if ((v.type ?? 'serverToServer') === 'serverToServer') {
          if (v.redirectUris !== undefined) return refuse(ctx.issues, ['redirectUris'], 'belongs to applications of type authorizationCode', v.redirectUris);
          if (v.public !== undefined) return refuse(ctx.issues, ['public'], 'belongs to applications of type authorizationCode', v.public);
          return { type: 'serverToServer' as const, ...common };
        }
        const uris = v.redirectUris ?? [];
        if (uris.length === 0)
          return refuse(ctx.issues, ['redirectUris'], 'needs at least one redirect URI for an authorizationCode application', v.redirectUris);
        for (const [i, uri] of uris.entries()) {
          const problem = redirectUriProblem(uri);
          if (problem) return refuse(ctx.issues, ['redirectUris', i], `is '${uri.slice(0, 200)}', which ${problem}`, uri);
          if (uris.indexOf(uri) !== i) return refuse(ctx.issues, ['redirectUris', i], `is '${uri.slice(0, 200)}', which is listed twice`, uri);
        }
        return { type: 'authorizationCode' as const, ...common, redirectUris: uris, public: v.public ?? false };
      }),
    ),
    { id: 'CreateApplicationBody' },
  ))();

export type ApplicationInput = z.output<typeof CreateApplicationBody>;

export const AddKeyBody = /* @__PURE__ */ (() =>
  doc(strictObject({ publicKey: doc(checkedString(z.minLength(1), z.maxLength(64 * 1024)), 'RSA public key, PEM (SPKI or PKCS#1), 2048 to 8192 bits') }), {
    id: 'AddKeyBody',
  }))();

const ScopeEnum = /* @__PURE__ */ (() => z.enum(SCOPES))();

export const ApplicationKey = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: Uuid,
      fingerprint: doc(z.string(), 'SHA-256 of the key (SPKI DER), base64url'),
      bits: z.int(),
      createdAt: DateTime,
    }),
    { id: 'ApplicationKey' },
  ))();

const applicationFields = /* @__PURE__ */ (() => ({
  clientId: doc(Uuid, "The client_id; a server-to-server application's assertions' iss"),
  name: z.string(),
  scopes: z.array(ScopeEnum),
  defaultScopes: z.array(ScopeEnum),
  createdAt: DateTime,
}))();

const ServerToServerApplication = /* @__PURE__ */ (() =>
  doc(strictObject({ ...applicationFields, type: z.literal('serverToServer'), keys: z.array(ApplicationKey) }), { id: 'ServerToServerApplication' }))();

const AuthorizationCodeApplication = /* @__PURE__ */ (() =>
  doc(strictObject({ ...applicationFields, type: z.literal('authorizationCode'), redirectUris: z.array(z.string()), public: z.boolean() }), {
    id: 'AuthorizationCodeApplication',
  }))();

export const Application = /* @__PURE__ */ (() =>
  doc(z.discriminatedUnion('type', [ServerToServerApplication, AuthorizationCodeApplication]), { id: 'Application' }))();

/** The registration's answer: a confidential authorization-code client's secret is in it, once, never again. */
export const RegisteredApplication = /* @__PURE__ */ (() =>
  doc(
    z.discriminatedUnion('type', [
      ServerToServerApplication,
      strictObject({
        ...AuthorizationCodeApplication.def.shape,
        clientSecret: z.optional(doc(z.string(), 'Confidential clients only: shown in this answer only')),
      }),
    ]),
    { id: 'RegisteredApplication' },
  ))();

export const ApplicationList = /* @__PURE__ */ (() => doc(strictObject({ data: z.array(Application) }), { id: 'ApplicationList' }))();

/** Client ids and key ids are the service's uuids, but any text finds nothing (404) rather than a 400. */
export const ApplicationPath = /* @__PURE__ */ (() => strictObject({ clientId: z.string() }))();
export const ApplicationKeyPath = /* @__PURE__ */ (() => strictObject({ clientId: z.string(), keyId: z.string() }))();
