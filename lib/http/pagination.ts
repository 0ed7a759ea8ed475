// Cursor pagination (the service specification's pagination rules). A cursor is opaque:
//   base64url(nonce ‖ AES-256-GCM(JSON {k: lastKey})) "." base64url(GCM tag)
// with a random 96-bit nonce, a key derived from the service secret by HKDF-SHA256 under its own
// `info` (RFC 5869; the secret itself keys nothing), and as additional authenticated data the
// binding: a digest of the operation, the workspace, the path parameters, every query parameter
// except pageCursor, and (search) the body's `data`. So a cursor shows nothing of the key layout,
// and decrypts only for the very query that produced it: a forged, garbled or foreign cursor is one
// and the same 400.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ApiError } from './errors.ts';
import { principalOf, type ApiRequest } from './request.ts';
import { serviceSecretKey } from '../auth/service-secret.ts';
import { config } from '../config.ts';
import { DEFAULT_LIMIT } from '../domain/schemas/common.ts';
import type { Slice } from '../store/pages.ts';

const CURSOR_PARAM = 'pageCursor';
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
  /**
   * The list's order, for a list whose order changed: a cursor made for another order (or before
   * the list had one named) does not decrypt, so it is refused rather than read in the wrong order.
   */
  order?: string;
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
  const material = canonical([
    'v1',
    scope.operationId,
    scope.workspaceId,
    params,
    query,
    scope.body ?? null,
    ...(scope.order !== undefined ? [scope.order] : []),
  ]);
  return createHash('sha256').update(material).digest('base64url');
}

/** HKDF `info` of the cursor key (lib/auth/service-secret.ts). */
export const CURSOR_KEY_INFO = 'pm-api pagination cursor AES-256-GCM v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const cursorKey = () => serviceSecretKey(CURSOR_KEY_INFO);

export async function encodeCursor(scope: PageScope, key: PageKey): Promise<string> {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await cursorKey(), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(bindingOf(scope)));
  const sealed = Buffer.concat([nonce, cipher.update(JSON.stringify({ k: key }), 'utf8'), cipher.final()]);
  return `${sealed.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
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

/** Decrypts a cursor for the query it is presented with; returns the key it carries. */
export async function decodeCursor(scope: PageScope, cursor: string): Promise<PageKey> {
  const parts = cursor.split('.');
  if (cursor.length > MAX_CURSOR_LENGTH || parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]!) || !/^[A-Za-z0-9_-]+$/.test(parts[1]!)) {
    throw invalidCursor();
  }
  const sealed = Buffer.from(parts[0]!, 'base64url');
  const tag = Buffer.from(parts[1]!, 'base64url');
  // A full-length tag only: GCM would otherwise verify truncated (weaker) tags. And only the one
  // spelling encodeCursor gives: a last character's unused bits changed decode to the same bytes.
  if (sealed.length <= NONCE_BYTES || tag.length !== TAG_BYTES) throw invalidCursor();
  if (sealed.toString('base64url') !== parts[0] || tag.toString('base64url') !== parts[1]) throw invalidCursor();
  const aesKey = await cursorKey();
  let key: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', aesKey, sealed.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(bindingOf(scope)));
    decipher.setAuthTag(tag);
    const plaintext = Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES)), decipher.final()]).toString('utf8');
    key = (JSON.parse(plaintext) as { k?: unknown }).k;
  } catch {
    throw invalidCursor();
  }
  if (!isPageKey(key)) throw invalidCursor();
  return key;
}

/** The position of a list keyed by strings (an authentic cursor with another key shape cannot happen, but costs nothing to refuse). */
export function stringKey(after: PageKey | undefined): string | undefined {
  if (after !== undefined && typeof after !== 'string') throw invalidCursor();
  return after;
}

/** An absolute URL under {base_url} for a route path (`/v2/...` template) and its parameters. */
export function publicUrl(routePath: string, params: Record<string, string>, query: Array<[string, string]> = []): string {
  const path = routePath.replace(/^\/v2/, '').replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  // Names and values percent-encoded, brackets included (`fields%5B%5D=`): RFC 3986 allows no bare
  // `[` or `]` in a query, and the document says these links are URIs.
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${config.baseUrl}${path}${qs ? `?${qs}` : ''}`;
}

export interface ListLinks {
  next?: string;
}

/** A list envelope's `links`: `next` repeats the query (minus any old cursor) plus the new cursor. */
async function listLinks(scope: PageScope, routePath: string, nextKey: PageKey | undefined): Promise<ListLinks> {
  if (nextKey === undefined) return {};
  const query = scope.query.filter(([k]) => k !== CURSOR_PARAM);
  query.push([CURSOR_PARAM, await encodeCursor(scope, nextKey)]);
  return { next: publicUrl(routePath, scope.params, query) };
}

/**
 * Most bytes of JSON a page's items may take. Lambda answers at most 6 MB per invocation, and the
 * answer carries the body as a JSON string, which can double its bytes (each quote and backslash
 * escaped); 2 MiB of items stays under that with the envelope and the headers, however large the
 * items are (an item is at most one DynamoDB item's 400 KB, and its views). A page that reaches it
 * ends early with a next link, as the pagination rules allow: a client follows `links.next` until
 * it is absent, never counting on `limit` items per page.
 */
export const PAGE_BYTES = 2 * 1024 * 1024;

/**
 * One page of a slice read `limit + 1` at a time (so the last page is known): the views of the
 * first `limit` records, cut to PAGE_BYTES of JSON (never below one view, so a page always moves
 * on), and the position the next page starts after — the last view's when one more was read or
 * some did not fit; the slice's `resume` when a filtered read spent its scan budget first
 * (lib/store/pages.ts); else none, the last page. `render` gives one view per record, in order. The
 * REST lists' envelope and the MCP list tools page with it.
 */
export async function pageOfFetched<R, V>(
  fetched: Slice<R>,
  limit: number,
  render: (records: R[]) => V[] | Promise<V[]>,
): Promise<{ views: V[]; next: string | undefined }> {
  const items = fetched.items.slice(0, limit);
  const views = await render(items.map((i) => i.record));
  const more = fetched.items.length > limit;
  const next = more && items.length > 0 ? items[items.length - 1]!.position : more ? undefined : fetched.resume;
  // One pass for the usual page, far under the budget; item by item only past it.
  if (Buffer.byteLength(JSON.stringify(views)) <= PAGE_BYTES) return { views, next };
  let bytes = 0;
  for (let i = 0; i < views.length; i++) {
    bytes += Buffer.byteLength(JSON.stringify(views[i]));
    if (bytes > PAGE_BYTES && i > 0) return { views: views.slice(0, i), next: items[i - 1]!.position };
  }
  return { views, next };
}

/** One page of a list request: its size, where it starts, and how to link the next one. */
interface Page {
  scope: PageScope;
  limit: number;
  /** The key of the last item of the previous page; undefined on the first page. */
  after: PageKey | undefined;
  /**
   * The list envelope for a slice read `limit + 1` at a time (pageOfFetched): `links.next` points
   * after the page's last view when there is more, or at the slice's `resume` when a filtered read
   * spent its scan budget first (the page is then shorter than `limit`, possibly empty).
   */
  envelope<R, V>(fetched: Slice<R>, render: (records: R[]) => V[] | Promise<V[]>): Promise<{ data: V[]; links: ListLinks }>;
}

/** The page parameters of a list's query, as its schema parsed them (lib/domain/schemas/common.ts pageParameters). */
export interface PageParameters {
  pageCursor?: string | undefined;
  limit?: number | undefined;
}

/** The page a list request asks for (its cursor checked against the request itself). */
export async function pageOf(req: ApiRequest, parameters: PageParameters, options: { body?: unknown; order?: string } = {}): Promise<Page> {
  const scope: PageScope = {
    operationId: req.route.operationId,
    workspaceId: principalOf(req).workspaceId,
    params: req.params,
    query: req.query.entries(),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.order !== undefined ? { order: options.order } : {}),
  };
  const limit = parameters.limit ?? DEFAULT_LIMIT;
  const after = parameters.pageCursor !== undefined ? await decodeCursor(scope, parameters.pageCursor) : undefined;
  return pageFor(scope, limit, after, req.route.path);
}

/** A page over an explicit scope (used for paginated attributes, whose next page is another route). */
export function pageFor(scope: PageScope, limit: number, after: PageKey | undefined, routePath: string): Page {
  return {
    scope,
    limit,
    after,
    async envelope(fetched, render) {
      const page = await pageOfFetched(fetched, limit, render);
      return { data: page.views, links: await listLinks(scope, routePath, page.next) };
    },
  };
}
