// Cursor pagination (the service specification's pagination rules). A cursor is
//   base64url(JSON {k: lastKey}) "." base64url(HMAC-SHA256(secret, binding "\n" payload))
// where `binding` digests the operation, the workspace, the path parameters, every query parameter
// except pageCursor, and (search) the body's `data`. The key is never trusted unless the MAC
// verifies, and the MAC only verifies for the very query that produced the cursor, so a forged,
// garbled or foreign cursor is one and the same 400.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.ts';
import { principalOf, type ApiRequest } from './request.ts';
import { serviceKeys } from '../auth/service-key.ts';
import { config } from '../config.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 100;
export const CURSOR_PARAM = 'pageCursor';
const MAX_CURSOR_LENGTH = 2048;

/** A keyset position: whatever the list orders by (JSON-serialisable). */
export type PageKey = string | number | Array<string | number>;

/** What a cursor is bound to. */
export interface PageScope {
  operationId: string;
  workspaceId: string;
  /** Path parameters (decoded). */
  params: Record<string, string>;
  /** Query pairs as the request carried them; pageCursor is ignored. */
  query: Array<[string, string]>;
  /** For body-carrying lists (search): the body's `data`. */
  body?: unknown;
}

/** JSON with object keys sorted, so equal bodies digest equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The digest a cursor is bound to. Parameter names are sorted; repeated values keep their order. */
export function bindingOf(scope: PageScope): string {
  const names = [...new Set(scope.query.map(([k]) => k))].filter((k) => k !== CURSOR_PARAM).sort();
  const query = names.map((k) => [k, scope.query.filter(([n]) => n === k).map(([, v]) => v)]);
  const params = Object.keys(scope.params)
    .sort()
    .map((k) => [k, scope.params[k]]);
  const material = canonical(['v1', scope.operationId, scope.workspaceId, params, query, scope.body ?? null]);
  return createHash('sha256').update(material).digest('base64url');
}

async function mac(binding: string, payload: string): Promise<Buffer> {
  const { secret } = await serviceKeys();
  return createHmac('sha256', secret).update(`${binding}\n${payload}`).digest();
}

export async function encodeCursor(scope: PageScope, key: PageKey): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ k: key })).toString('base64url');
  return `${payload}.${(await mac(bindingOf(scope), payload)).toString('base64url')}`;
}

const invalidCursor = () =>
  new ApiError(
    'request.invalid',
    'The pageCursor is not valid for this request: it was altered, or it belongs to a different query. Use the links.next URL of the previous page unchanged.',
    { source: { parameter: CURSOR_PARAM } },
  );

const isPageKey = (k: unknown): k is PageKey =>
  typeof k === 'string' ||
  (typeof k === 'number' && Number.isFinite(k)) ||
  (Array.isArray(k) && k.every((p) => typeof p === 'string' || (typeof p === 'number' && Number.isFinite(p))));

/** Verifies a cursor against the query it is presented with; returns the key it carries. */
export async function decodeCursor(scope: PageScope, cursor: string): Promise<PageKey> {
  const parts = cursor.split('.');
  if (cursor.length > MAX_CURSOR_LENGTH || parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]!) || !/^[A-Za-z0-9_-]+$/.test(parts[1]!)) {
    throw invalidCursor();
  }
  const [payload, sig] = parts as [string, string];
  const expected = await mac(bindingOf(scope), payload);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  let key: unknown;
  try {
    key = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { k?: unknown }).k;
  } catch {
    throw invalidCursor();
  }
  if (!isPageKey(key)) throw invalidCursor();
  return key;
}

/** The position of a list keyed by strings (a valid MAC over another key shape cannot happen, but costs nothing to refuse). */
export function stringKey(after: PageKey | undefined): string | undefined {
  if (after !== undefined && typeof after !== 'string') throw invalidCursor();
  return after;
}

/** The `limit` extension: 1–100, default 100. */
export function parseLimit(values: string[]): number {
  if (values.length === 0) return DEFAULT_LIMIT;
  if (values.length > 1) throw new ApiError('request.invalid', 'The limit parameter is given more than once.', { source: { parameter: 'limit' } });
  const v = values[0]!;
  const n = /^[0-9]{1,4}$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) {
    throw new ApiError('request.invalid', `The limit must be an integer from 1 to ${MAX_LIMIT}; got '${v.slice(0, 50)}'.`, { source: { parameter: 'limit' } });
  }
  return n;
}

/** An absolute URL under {base_url} for a route path (`/v2/...` template) and its parameters. */
export function publicUrl(routePath: string, params: Record<string, string>, query: Array<[string, string]> = []): string {
  const path = routePath.replace(/^\/v2/, '').replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  // Brackets stay readable in names (fields[]=...); everything else is percent-encoded.
  const enc = (s: string) => encodeURIComponent(s);
  const encName = (s: string) => enc(s).replace(/%5B/g, '[').replace(/%5D/g, ']');
  const qs = query.map(([k, v]) => `${encName(k)}=${enc(v)}`).join('&');
  return `${config.baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

export interface ListLinks {
  next?: string;
}

/** A list envelope's `links`: `next` repeats the query (minus any old cursor) plus the new cursor. */
export async function listLinks(scope: PageScope, routePath: string, nextKey: PageKey | undefined): Promise<ListLinks> {
  if (nextKey === undefined) return {};
  const query = scope.query.filter(([k]) => k !== CURSOR_PARAM);
  query.push([CURSOR_PARAM, await encodeCursor(scope, nextKey)]);
  return { next: publicUrl(routePath, scope.params, query) };
}

/** One page of a list request: its size, where it starts, and how to link the next one. */
export interface Page {
  scope: PageScope;
  limit: number;
  /** The key of the last item of the previous page; undefined on the first page. */
  after: PageKey | undefined;
  /**
   * The list envelope for `fetched` items (fetch `limit + 1` so the last page is known): the first
   * `limit` are returned and `links.next` appears when there was one more — or, for a filtered
   * read that spent its scan budget first (lib/store/pages.ts), when `resume` gives the position
   * the next page continues from (the page is then shorter than `limit`, possibly empty).
   */
  envelope<T>(fetched: T[], keyOf: (item: T) => PageKey, render?: (items: T[]) => unknown[] | Promise<unknown[]>, resume?: PageKey): Promise<{ data: unknown[]; links: ListLinks }>;
}

/** Reads `limit` and `pageCursor` of a list request (the cursor checked against the request itself). */
export async function pageOf(req: ApiRequest, options: { body?: unknown } = {}): Promise<Page> {
  const scope: PageScope = {
    operationId: req.route.operationId,
    workspaceId: principalOf(req).workspaceId,
    params: req.params,
    query: req.query.entries(),
    ...(options.body !== undefined ? { body: options.body } : {}),
  };
  const limit = parseLimit(req.query.all('limit'));
  const cursors = req.query.all(CURSOR_PARAM);
  if (cursors.length > 1) throw new ApiError('request.invalid', 'The pageCursor parameter is given more than once.', { source: { parameter: CURSOR_PARAM } });
  const after = cursors.length ? await decodeCursor(scope, cursors[0]!) : undefined;
  return pageFor(scope, limit, after, req.route.path);
}

/** A page over an explicit scope (used for paginated attributes, whose next page is another route). */
export function pageFor(scope: PageScope, limit: number, after: PageKey | undefined, routePath: string): Page {
  return {
    scope,
    limit,
    after,
    async envelope(fetched, keyOf, render, resume) {
      const items = fetched.slice(0, limit);
      const more = fetched.length > limit && items.length > 0;
      const data = render ? await render(items) : (items as unknown[]);
      return { data, links: await listLinks(scope, routePath, more ? keyOf(items[items.length - 1]!) : fetched.length <= limit ? resume : undefined) };
    },
  };
}
