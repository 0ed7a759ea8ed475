// End-to-end test helpers: the real local gateway in-process on a free port, real DynamoDB Local,
// and workspaces with members and tokens made through the same code the admin CLI uses. Every
// response `call` receives is checked against docs/openapi.json (./contract.ts).
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import type { Scope, Role } from '#lib/domain/scopes.ts';
import { ERROR_TABLE, type ErrorCode, type ErrorSource } from '#lib/http/errors.ts';
import { addMember, setMemberActive, type Member } from '#lib/store/members.ts';
import { createWorkspace } from '#lib/store/workspaces.ts';
import { checkResponse } from './contract.ts';
import { createGateway, type HandlerLoader } from '../../local/gateway.ts';

export interface TestApp {
  /** {app_url}, e.g. http://127.0.0.1:51234 */
  url: string;
  /** {base_url} */
  baseUrl: string;
  /** Where records are shown in a browser (PUBLIC_WEB_URL): their `links.html`. */
  webUrl: string;
  /** The handlers are test doubles: their successes are not the service's, so only errors are held to the document. */
  doubles: boolean;
  close(): Promise<void>;
}

/** The web application's address the tests configure, so that every `links.html` shows the setting is used. */
const WEB_URL = 'https://web.example.test/acme';

/** Starts the local gateway on a free port and points the public URLs at it. */
export async function startApp(options: { loadHandler?: HandlerLoader; doubles?: boolean } = {}): Promise<TestApp> {
  const server = createGateway(options.loadHandler ? { loadHandler: options.loadHandler } : {});
  // The gateway shares the test's event loop: a test that blocks it (a synchronous 4096-bit RSA key
  // under load) can outlast Node's 5 s keep-alive, and the server then closes the socket fetch is
  // about to reuse (ECONNRESET). fetch's own idle timeout (shorter) closes it first instead.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PUBLIC_APP_URL = url;
  process.env.PUBLIC_BASE_URL = `${url}/v2`;
  process.env.PUBLIC_WEB_URL = WEB_URL;
  return {
    url,
    baseUrl: `${url}/v2`,
    webUrl: WEB_URL,
    doubles: options.doubles ?? false,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TestWorkspace {
  workspaceId: string;
  admin: Member;
  /** An API token of the admin member, all scopes. */
  token: string;
  tokenId: string;
  /** Adds a member and returns a token for them. */
  member(options?: { role?: Role; scopes?: Scope[]; email?: string; active?: boolean }): Promise<{ member: Member; token: string; tokenId: string }>;
}

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}@example.com`;

export async function newWorkspace(name = 'Test workspace'): Promise<TestWorkspace> {
  const ws = await createWorkspace(name);
  const admin = await addMember(ws.id, { email: uniqueEmail('admin'), role: 'admin', active: true });
  const issued = await issueApiToken(admin);
  return {
    workspaceId: ws.id,
    admin,
    token: issued.token,
    tokenId: issued.id,
    member: async ({ role = 'maker', scopes, email, active = true } = {}) => {
      const member = await addMember(ws.id, { email: email ?? uniqueEmail(role), role, active: true });
      const t = await issueApiToken(member, scopes ? { scopes } : {});
      if (!active) await setMemberActive(ws.id, member.email, false);
      return { member, token: t.token, tokenId: t.id };
    },
  };
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when empty or not JSON). */
  json: any;
}

/** One HTTP request against the app; `body` objects are sent as JSON. The response must keep the document's contract. */
export async function call(
  app: TestApp,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string | string[]>; redirect?: 'manual' } = {},
): Promise<CallResult> {
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (options.token) headers.authorization ??= `Bearer ${options.token}`;
  let body: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const fields = Object.values(headers).some((v) => Array.isArray(v));
  const res = fields
    ? await sendFields(app.url + path, method, headers, body)
    : await fetch(app.url + path, {
        method,
        headers: headers as Record<string, string>,
        ...(body !== undefined ? { body } : {}),
        ...(options.redirect ? { redirect: options.redirect } : {}),
      });
  const text = await res.text();
  checkResponse({ method, target: path, status: res.status, headers: res.headers, text }, { doubles: app.doubles });
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * A request whose headers given as arrays are sent as one field per value: fetch would fold them
 * into one field joined with ", ", which is one value to the server.
 */
function sendFields(url: string, method: string, headers: Record<string, string | string[]>, body: string | Buffer | undefined) {
  return new Promise<{ status: number; headers: Headers; text: () => Promise<string> }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const received = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) received.append(name, v);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: received, text: () => Promise.resolve(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A 401's challenge as a client of the deployed API receives it: API Gateway's REST API passes a
 * function's WWW-Authenticate on as x-amzn-Remapped-WWW-Authenticate, and the local gateway does the
 * same (local/gateway.ts); never under its own name.
 */
export function challengeOf(res: { headers: Headers }): string | null {
  expect(res.headers.get('www-authenticate')).toBeNull();
  return res.headers.get('x-amzn-remapped-www-authenticate');
}

/**
 * Asserts the spec's error envelope exactly: status, one error with the code's title, the
 * response's X-Request-Id as `id`, a detail (matched when given) and `source` (exact when given).
 */
export function expectError(res: CallResult, code: ErrorCode, options: { detail?: string | RegExp; source?: ErrorSource } = {}): void {
  expect(res.status, res.text).toBe(ERROR_TABLE[code].status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.json).toEqual({
    id,
    errors: [
      {
        code,
        title: ERROR_TABLE[code].title,
        detail: expect.any(String),
        ...(options.source ? { source: options.source } : {}),
      },
    ],
  });
  const detail: string = res.json.errors[0].detail;
  expect(detail.length).toBeGreaterThan(0);
  expect(detail.length).toBeLessThanOrEqual(1000);
  if (options.detail !== undefined) expect(detail).toMatch(options.detail);
}

/** The request budget (RATE_LIMIT_PER_SECOND) set to `limit` for each test of the file, and restored after it. */
export function rateLimitEachTest(limit: number): void {
  const saved = process.env.RATE_LIMIT_PER_SECOND;
  beforeEach(() => {
    process.env.RATE_LIMIT_PER_SECOND = String(limit);
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.RATE_LIMIT_PER_SECOND;
    else process.env.RATE_LIMIT_PER_SECOND = saved;
  });
}
