// Helpers for the server-to-server tests: applications made through the HTTP API, RSA key pairs,
// assertions signed by hand (node:crypto, so headers and claims can be anything a hostile client
// sends), and token requests.
import { createHmac, generateKeyPairSync, sign, constants, type KeyObject } from 'node:crypto';
import { expect } from 'vitest';
import { call, type CallResult, type TestApp, type TestWorkspace } from '../support/app.ts';

export const GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface KeyPair {
  privateKey: KeyObject;
  publicPem: string;
}

export function rsaKeyPair(bits = 2048): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return { privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** A compact JWS over exactly the given header and payload text, signed as `alg` says. */
export function signRaw(
  header: Record<string, unknown> | string,
  payload: Record<string, unknown> | string,
  key: KeyObject | string | Buffer,
  alg = 'RS256',
): string {
  const input = `${b64(json(header))}.${b64(json(payload))}`;
  let signature: Buffer;
  switch (alg) {
    case 'RS256':
      signature = sign('sha256', Buffer.from(input), key);
      break;
    case 'RS384':
      signature = sign('sha384', Buffer.from(input), key);
      break;
    case 'PS256':
      signature = sign('sha256', Buffer.from(input), { key: key as KeyObject, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
      break;
    case 'ES256':
      signature = sign('sha256', Buffer.from(input), { key: key as KeyObject, dsaEncoding: 'ieee-p1363' });
      break;
    case 'HS256':
      signature = createHmac('sha256', key).update(input).digest();
      break;
    case 'none':
      signature = Buffer.alloc(0);
      break;
    default:
      throw new Error(`unsupported alg ${alg}`);
  }
  return `${input}.${b64(signature)}`;
}

export interface TestClient {
  app: TestApp;
  ws: TestWorkspace;
  clientId: string;
  keyId: string;
  key: KeyPair;
  /** The token URL, the only accepted audience. */
  aud: string;
  /** Claims of a valid assertion for `sub` (default: the workspace admin), overridable. */
  claims(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** A valid RS256 assertion with the client's key, claims overridable (undefined removes a claim). */
  assertion(overrides?: Record<string, unknown>, header?: Record<string, unknown>): string;
}

export const nowS = () => Math.floor(Date.now() / 1000);

/** A JWT's claims, read without verifying it (the tests check what the service put there). */
export const jwtClaims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

export async function createApp(app: TestApp, ws: TestWorkspace, body: Record<string, unknown>): Promise<string> {
  const res = await call(app, 'POST', '/oauth2/applications', { token: ws.token, body });
  expect(res.status, res.text).toBe(201);
  return res.json.clientId;
}

export async function addKey(app: TestApp, ws: TestWorkspace, clientId: string, publicPem: string): Promise<string> {
  const res = await call(app, 'POST', `/oauth2/applications/${clientId}/keys`, { token: ws.token, body: { publicKey: publicPem } });
  expect(res.status, res.text).toBe(201);
  return res.json.id;
}

/** An application with all scopes allowed, `entities:read notes:read` by default, and one key. */
export async function newClient(
  app: TestApp,
  ws: TestWorkspace,
  options: { scopes?: string[]; defaultScopes?: string[]; key?: KeyPair } = {},
): Promise<TestClient> {
  const clientId = await createApp(app, ws, {
    name: 'Integration',
    scopes: options.scopes ?? ['entities:read', 'write:entities', 'entities:delete', 'notes:read', 'notes:write', 'notes:delete'],
    defaultScopes: options.defaultScopes ?? ['entities:read', 'notes:read'],
  });
  const key = options.key ?? rsaKeyPair();
  const keyId = await addKey(app, ws, clientId, key.publicPem);
  const aud = `${app.url}/oauth2/token`;
  const claims = (overrides: Record<string, unknown> = {}) => {
    const base: Record<string, unknown> = { iss: clientId, sub: ws.admin.email, aud, iat: nowS(), exp: nowS() + 60, ...overrides };
    for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete base[k];
    return base;
  };
  return {
    app,
    ws,
    clientId,
    keyId,
    key,
    aud,
    claims,
    assertion: (overrides = {}, header = { alg: 'RS256', typ: 'JWT' }) => signRaw(header, claims(overrides), key.privateKey),
  };
}

/** POST /oauth2/token with a form body (or exactly the given body and content type). */
export function tokenRequest(app: TestApp, form: Record<string, string> | string, contentType = 'application/x-www-form-urlencoded'): Promise<CallResult> {
  const body = typeof form === 'string' ? form : new URLSearchParams(form).toString();
  return call(app, 'POST', '/oauth2/token', { body, headers: { 'content-type': contentType } });
}

export const exchange = (app: TestApp, assertion: string) => tokenRequest(app, { grant_type: GRANT, assertion });

/** Asserts the token endpoint's exact error body (no envelope, no extra fields). */
export function expectTokenError(res: CallResult, error: string, description: string): void {
  expect(res.status, res.text).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.json).toEqual({ error, error_description: description });
}

/** The spec's token-endpoint error table, as the tests expect it (literal strings, not imported). */
const SPEC = {
  missing: ['jwt_bearer_missing_assertion', 'JWT Bearer assertion is missing.'],
  invalid: ['jwt_bearer_invalid', 'JWT Bearer token is invalid.'],
  signature: ['jwt_bearer_invalid_signature', 'JWT Bearer token has an invalid signature.'],
  expired: ['jwt_bearer_expired', 'JWT Bearer token has expired.'],
  issuer: ['jwt_bearer_invalid_issuer', 'JWT Bearer token has an invalid issuer.'],
  audience: ['jwt_bearer_invalid_audience', 'JWT Bearer token has an invalid audience.'],
  user: ['jwt_bearer_invalid_user', 'JWT Bearer token subject does not match a valid user.'],
  grant: ['unsupported_grant_type', 'The grant_type must be urn:ietf:params:oauth:grant-type:jwt-bearer.'],
  scope: ['invalid_scope', 'None of the requested scopes may be granted to this application and user.'],
} as const satisfies Record<string, readonly [string, string]>;

export const expectSpec = (res: CallResult, row: keyof typeof SPEC) => expectTokenError(res, SPEC[row][0], SPEC[row][1]);
