// The records a request's handler will read, named before it runs (lib/store/record-names.ts), so
// that the bearer check reads them in its own BatchGetItem (lib/auth/bearer.ts), in the token's own
// workspace, and hands them over only once the token proved live: the path's item (`prefetch` in
// lib/routes.ts), the record of an Idempotency-Key, and the records a handler module names from its
// request (the `prefetch` option of api(), lib/http/pipeline.ts).
//
// Authentication comes before the body is read and validated (a refused token gets its 401 whatever
// the body), so a handler's records come from the body as sent: a function naming them reads it
// defensively (what it cannot read names nothing, it never throws). A wrong guess costs a read, never a wrong answer: a reader takes a prefetched item only
// for the exact key it needs (lib/store/preread.ts), and the validation refuses a bad body exactly as
// it would have.
import { peekJsonBody } from './middleware/body.ts';
import { claimScope, idempotencyHeader, type ApiRequest } from './request.ts';
import { idempotencyKey } from '../domain/idempotency.ts';
import { uuidOf } from '../domain/input.ts';
import type { Route } from '../routes.ts';
import type { RecordName } from '../store/record-names.ts';

/** What a handler's records may be named from. */
interface PrefetchRequest {
  /** Path parameters, percent-decoded, unvalidated. */
  params: Record<string, string>;
  /** The JSON body as sent, unvalidated; undefined when the body middleware will refuse it. */
  body: unknown;
}

/** A handler module's records: what its first reads will ask for (lib/http/pipeline.ts `api`). */
export type PrefetchRecords = (req: PrefetchRequest) => RecordName[];

function idempotencyRecord(route: Route, api: ApiRequest, memberId: string): RecordName[] {
  let key: string | undefined;
  try {
    key = idempotencyKey(idempotencyHeader(api));
  } catch {
    return []; // A malformed key is the claim's 400 to give (lib/http/request.ts idempotencyClaim).
  }
  return key === undefined ? [] : [{ idempotencyRecord: { scope: claimScope(memberId, route.operationId), key } }];
}

/**
 * The records to read with the credential for this request (given the token's member), or undefined
 * when there are none to ask for. `idempotent`: the route takes an Idempotency-Key.
 */
export function prefetchFor(
  route: Route,
  api: ApiRequest,
  options: { records?: PrefetchRecords | undefined; idempotent?: boolean | undefined },
): ((memberId: string) => RecordName[]) | undefined {
  const id = uuidOf(api.params.id);
  // Only a well-formed id names an item; anything else is the handler's 400 to give.
  const pathItem = route.prefetch && id ? route.prefetch : undefined;
  const own = options.records;
  if (!pathItem && !own && !options.idempotent) return undefined;
  return (memberId) => [
    ...(pathItem === 'entity' ? [{ entity: id! }] : pathItem === 'note' ? [{ note: id! }] : []),
    ...(options.idempotent ? idempotencyRecord(route, api, memberId) : []),
    ...(own ? own({ params: api.params, body: route.body === 'json' ? peekJsonBody(api) : undefined }) : []),
  ];
}
