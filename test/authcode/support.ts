// Helpers for the authorization code flow tests: applications registered over HTTP, members with
// passwords (set through the store function the admin CLI uses), and a scripted browser — plain
// HTTP with its own cookie jar, sent from its own loopback address (127.x.y.z), so each test's
// sign-in failures are counted apart from every other test's.
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { hashPassword } from '#lib/auth/passwords.ts';
import { s256Challenge } from '#lib/domain/pkce.ts';
import type { Member } from '#lib/store/members.ts';
import { setMemberPassword } from '#lib/store/sign-in.ts';
import { call, type TestApp, type TestWorkspace } from '../support/app.ts';

export const PASSWORD = 'correct horse battery staple';
export const REDIRECT_URI = 'https://client.example.com/callback';
export const VERIFIER = 'x'.repeat(20) + '-._~' + 'Y'.repeat(30);
export const CHALLENGE = s256Challenge(VERIFIER);

export interface CodeClient {
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
}

/** Registers an authorization-code application (confidential unless `public`). */
export async function newCodeClient(
  app: TestApp,
  ws: TestWorkspace,
  options: { public?: boolean; scopes?: string[]; defaultScopes?: string[]; redirectUris?: string[]; name?: string } = {},
): Promise<CodeClient> {
  const redirectUris = options.redirectUris ?? [REDIRECT_URI];
  const res = await call(app, 'POST', '/oauth2/applications', {
    token: ws.token,
    body: {
      type: 'authorizationCode',
      name: options.name ?? 'Roadmap Sync',
      scopes: options.scopes ?? ['entities:read', 'write:entities', 'notes:read'],
      ...(options.defaultScopes ? { defaultScopes: options.defaultScopes } : {}),
      redirectUris,
      ...(options.public ? { public: true } : {}),
    },
  });
  expect(res.status, res.text).toBe(201);
  return { clientId: res.json.clientId, ...(res.json.clientSecret ? { clientSecret: res.json.clientSecret } : {}), redirectUri: redirectUris[0]! };
}

export async function withPassword(member: Member, password = PASSWORD): Promise<Member> {
  await setMemberPassword(member.workspaceId, member.id, await hashPassword(password));
  return member;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  location?: string;
}

let nextAddress = 0;
/** A loopback address of its own (for each scripted browser): its failures are counted apart. */
export const freshAddress = () => {
  const n = (process.pid * 1000 + ++nextAddress) % 250_000;
  return `127.${1 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${1 + (n % 250)}`;
};

/** A browser without JavaScript: follows nothing by itself, keeps cookies per name. */
export class ScriptedBrowser {
  readonly cookies = new Map<string, string>();
  readonly address = freshAddress();

  constructor(readonly app: TestApp) {}

  send(method: 'GET' | 'POST', path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const url = new URL(path, this.app.url + '/oauth/');
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method,
          localAddress: this.address,
          headers: {
            ...(cookie ? { cookie } : {}),
            ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            for (const line of res.headers['set-cookie'] ?? []) {
              const [pair, ...attrs] = line.split(';');
              const eq = pair!.indexOf('=');
              const name = pair!.slice(0, eq);
              const maxAge = attrs.find((a) => a.trim().toLowerCase().startsWith('max-age='));
              if (maxAge && Number(maxAge.split('=')[1]) <= 0) this.cookies.delete(name);
              else this.cookies.set(name, pair!.slice(eq + 1));
            }
            const location = res.headers.location;
            resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), ...(location ? { location } : {}) });
          });
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }
}

/** A hidden field's value on a page. */
export function hidden(html: string, name: string): string {
  const m = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html);
  if (!m) throw new Error(`No hidden field ${name} on the page:\n${html.slice(0, 2000)}`);
  return m[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function authorizePath(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  return `/oauth/authorize?${q.toString()}`;
}

/** Standard parameters of a client's authorization request, overridable (undefined removes one). */
export function authorizeParams(client: CodeClient, overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    state: 'state-123',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...overrides,
  };
}

/** Signs in on the sign-in page the authorization request shows; returns the consent page. */
export async function signInAndGetConsent(
  browser: ScriptedBrowser,
  path: string,
  email: string,
  password = PASSWORD,
  extra: Record<string, string> = {},
): Promise<Reply> {
  const page = await browser.send('GET', path);
  expect(page.status, page.text).toBe(200);
  const signedIn = await browser.send('POST', 'sign-in', {
    csrf_token: hidden(page.text, 'csrf_token'),
    request: hidden(page.text, 'request'),
    email,
    password,
    ...extra,
  });
  expect(signedIn.status, signedIn.text).toBe(303);
  const consent = await browser.send('GET', signedIn.location!);
  expect(consent.status, consent.text).toBe(200);
  return consent;
}

/** Answers the consent page; returns the redirect's query parameters. */
export async function decide(browser: ScriptedBrowser, consent: Reply, decision: 'allow' | 'deny'): Promise<URLSearchParams> {
  const res = await browser.send('POST', 'consent', { csrf_token: hidden(consent.text, 'csrf_token'), request: hidden(consent.text, 'request'), decision });
  expect(res.status, res.text).toBe(303);
  return new URL(res.location!).searchParams;
}

/** The whole front channel: sign in (with `signIn`'s extra fields), allow, and return the code. */
export async function authorizationCode(
  app: TestApp,
  client: CodeClient,
  member: Member,
  overrides: Record<string, string | undefined> = {},
  signIn: Record<string, string> = {},
): Promise<string> {
  const browser = new ScriptedBrowser(app);
  const consent = await signInAndGetConsent(browser, authorizePath(authorizeParams(client, overrides)), member.email, PASSWORD, signIn);
  const params = await decide(browser, consent, 'allow');
  const code = params.get('code');
  if (!code) throw new Error(`No code in the redirect: ${params.toString()}`);
  return code;
}

/** POST /oauth/token with a form; `basic` sends client_secret_basic. */
export function tokenCall(app: TestApp, form: Record<string, string>, options: { basic?: [string, string] } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.basic)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(options.basic[0])}:${encodeURIComponent(options.basic[1])}`).toString('base64')}`;
  return call(app, 'POST', '/oauth/token', { body: new URLSearchParams(form).toString(), headers });
}

/** The client's own authentication fields for client_secret_post (or none for a public client). */
export const clientAuth = (client: CodeClient): Record<string, string> => ({
  client_id: client.clientId,
  ...(client.clientSecret ? { client_secret: client.clientSecret } : {}),
});

/** Exchanges a code (client_secret_post, or none) with the standard verifier. */
export function exchangeCode(app: TestApp, client: CodeClient, code: string, overrides: Record<string, string | undefined> = {}) {
  const form = { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: VERIFIER, ...clientAuth(client), ...overrides };
  return tokenCall(app, Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined)));
}

export function refresh(app: TestApp, client: CodeClient, refreshToken: string, extra: Record<string, string> = {}) {
  return tokenCall(app, { grant_type: 'refresh_token', refresh_token: refreshToken, ...clientAuth(client), ...extra });
}

/** Asserts an RFC 6749 §5.2 body exactly (description matched when given). */
export function expectOAuthError(
  res: { status: number; headers: Headers; json: any; text: string },
  error: string,
  description?: string | RegExp,
  status = 400,
): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.json).toEqual({ error, error_description: expect.any(String) });
  if (description !== undefined) expect(res.json.error_description).toMatch(description);
}
