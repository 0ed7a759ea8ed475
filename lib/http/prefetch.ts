// The items a request's handler will read, named before it runs, so that the bearer check reads
// them in its own BatchGetItem (lib/auth/bearer.ts) and hands them over only once the token proved
// live: the path's item (`prefetch` in lib/routes.ts), the record of an Idempotency-Key, and the
// keys a handler module computes from its request (the 4th argument of api(), lib/http/pipeline.ts).
//
// Authentication comes before the body is read and validated (a refused token gets its 401 whatever
// the body), so a handler's keys come from the body as sent: a function here reads it defensively
// (what it cannot read names nothing, it never throws) and builds keys only in the token's own
// workspace. A wrong guess costs a read, never a wrong answer: a reader takes a prefetched item only
// for the exact key it needs (lib/store/preread.ts), and the validation refuses a bad body exactly as
// it would have.
import { peekJsonBody } from './middleware/body.ts';
import { claimScope, type ApiRequest } from './request.ts';
import { IDEMPOTENCY_HEADER, idempotencyKey } from '../domain/idempotency.ts';
import { isUuid } from '../domain/input.ts';
import type { Route } from '../routes.ts';
import { idempotencyRecordKey } from '../store/idempotency.ts';
import * as keys from '../store/keys.ts';
import type { ItemKey } from '../store/keys.ts';

/** What a handler's keys may be computed from. */
export interface PrefetchRequest {
  workspaceId: string;
  /** The token's member. */
  memberId: string;
  /** Path parameters, percent-decoded, unvalidated. */
  params: Record<string, string>;
  /** The JSON body as sent, unvalidated; undefined when the body middleware will refuse it. */
  body: unknown;
}

/** A handler module's keys: items its first reads will ask for (lib/http/pipeline.ts `api`). */
export type PrefetchKeys = (req: PrefetchRequest) => ItemKey[];

/** The lower-case id when `v` is a uuid (ids are stored so, lib/domain/schemas/common.ts `Uuid`). */
export const uuidOf = (v: unknown): string | undefined => (isUuid(v) ? v.toLowerCase() : undefined);

function idempotencyRecord(route: Route, api: ApiRequest, ws: string, memberId: string): ItemKey[] {
  let key: string | undefined;
  try {
    key = idempotencyKey(api.headers.get(IDEMPOTENCY_HEADER.toLowerCase()));
  } catch {
    return []; // A malformed key is the claim's 400 to give (lib/http/request.ts idempotencyClaim).
  }
  return key === undefined ? [] : [idempotencyRecordKey(ws, claimScope(memberId, route.operationId), key)];
}

/**
 * The keys to read with the credential for this request, or undefined when there are none to ask
 * for. `idempotent`: the route takes an Idempotency-Key.
 */
export function prefetchFor(
  route: Route,
  api: ApiRequest,
  options: { keys?: PrefetchKeys | undefined; idempotent?: boolean | undefined },
): ((ws: string, memberId: string) => ItemKey[]) | undefined {
  const id = uuidOf(api.params.id);
  // Only a well-formed id names an item; anything else is the handler's 400 to give.
  const pathItem = route.prefetch && id ? route.prefetch : undefined;
  const own = options.keys;
  if (!pathItem && !own && !options.idempotent) return undefined;
  return (ws, memberId) => [
    // Named, not keys[pathItem]: a computed member would keep every key builder in the bundle.
    ...(pathItem ? [(pathItem === 'entity' ? keys.entity : keys.note)(ws, id!)] : []),
    ...(options.idempotent ? idempotencyRecord(route, api, ws, memberId) : []),
    ...(own ? own({ workspaceId: ws, memberId, params: api.params, body: route.body === 'json' ? peekJsonBody(api) : undefined }) : []),
  ];
}
