// Helpers of the member page tests: records made through the REST API (as an integration would),
// and the pages' sign-in driven by the scripted browser of the authorization tests (plain HTTP, its
// own cookie jar and loopback address).
import { expect } from 'vitest';
import { hidden, PASSWORD, type Reply, type ScriptedBrowser } from '../authcode/support.ts';
import { call, type TestApp } from '../support/app.ts';

/** Creates a record over HTTP and returns its id. */
export async function create(app: TestApp, token: string, path: '/v2/entities' | '/v2/notes', data: unknown): Promise<string> {
  const res = await call(app, 'POST', path, { token, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as string;
}

export const entity = (app: TestApp, token: string, type: string, name: string, parent?: string, fields: Record<string, unknown> = {}) =>
  create(app, token, '/v2/entities', { type, fields: { name, ...fields }, ...(parent ? { relationships: [{ type: 'parent', target: { id: parent } }] } : {}) });

/** A note from `customer` (or none) linked to each entity with its importance. */
export const note = (
  app: TestApp,
  token: string,
  name: string,
  customer: string | undefined,
  links: Array<[string, string]>,
  fields: Record<string, unknown> = {},
) =>
  create(app, token, '/v2/notes', {
    type: 'textNote',
    fields: { name, ...fields },
    relationships: [
      ...(customer ? [{ type: 'customer', target: { id: customer } }] : []),
      ...links.map(([id, importance]) => ({ type: 'link', target: { id }, importance })),
    ],
  });

/** GET …/score over the API. */
export async function scoreOf(app: TestApp, token: string, id: string): Promise<number> {
  const res = await call(app, 'GET', `/v2/entities/${id}/score`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json.data.fields.score as number;
}

/** Signs in on the pages' own sign-in page; returns the form's answer (303 on success). */
export async function signInToPages(
  browser: ScriptedBrowser,
  workspaceId: string,
  email: string,
  options: { password?: string; next?: string } = {},
): Promise<Reply> {
  const page = await browser.send('GET', `/sign-in${options.next !== undefined ? `?${new URLSearchParams({ next: options.next }).toString()}` : ''}`);
  expect(page.status, page.text).toBe(200);
  return browser.send('POST', '/sign-in', {
    csrf_token: hidden(page.text, 'csrf_token'),
    next: hidden(page.text, 'next'),
    workspace: workspaceId,
    email,
    password: options.password ?? PASSWORD,
  });
}

/** The headers every member page carries, whatever its status; and no script anywhere. */
export function expectMemberPageHeaders(res: Reply, status: number): void {
  expect(res.status, res.text.slice(0, 2000)).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toMatch(
    /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
  );
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  expect(res.text).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
}

/** The 404 page with its one varying part (the request id) taken out. */
export const withoutReference = (text: string) => text.replace(/<span class="code">[0-9a-f-]{36}<\/span>/, '<span class="code">REF</span>');
