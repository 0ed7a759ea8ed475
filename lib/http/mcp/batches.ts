// JSON-RPC batches on the MCP endpoint. Protocol version 2025-06-18 removed them ("Remove support for
// JSON-RPC batching", the specification's changelog), so a request naming that version or a later
// one may not send one; an older client may, and each message of its batch spends the request
// budget as a request of its own would, so a batch is no way around the limit.
import { counted } from '../../domain/counted.ts';
import { ApiError } from '../errors.ts';
import { spendMore } from '../middleware/rate-limit.ts';
import type { ApiRequest } from '../request.ts';

/** The first protocol version without batches. */
const BATCHES_REMOVED_IN = '2025-06-18';

/**
 * Refuses a batch the request's protocol version does not allow; charges an allowed one's further
 * messages. `version`: the request's, one this server supports (./headers.ts protocolVersion).
 */
export async function admitBatch(req: ApiRequest, body: unknown, version: string): Promise<void> {
  if (!Array.isArray(body)) return;
  // The supported versions are dates, so they compare as strings.
  if (version >= BATCHES_REMOVED_IN) {
    throw new ApiError(
      'request.invalid',
      `A JSON-RPC batch (${counted(body.length, 'message')}) under MCP protocol version ${version}: batches were removed in ${BATCHES_REMOVED_IN}; send one message per request.`,
      { source: { parameter: 'MCP-Protocol-Version' } },
    );
  }
  refuseInitializeInBatch(body);
  refuseRepeatedIds(body);
  await spendMore(req, body.length - 1);
}

/** An initialize request opens the exchange and is answered on its own: the SDK's transport refuses one among other messages, naming neither. */
function refuseInitializeInBatch(batch: readonly unknown[]): void {
  if (batch.length < 2) return;
  const at = batch.findIndex((m) => (m as { method?: unknown } | null)?.method === 'initialize');
  if (at !== -1)
    throw new ApiError(
      'request.invalid',
      `Message ${at} of the JSON-RPC batch is an initialize request, which must be sent alone, before any other message. Nothing was run.`,
      { source: { pointer: `/${at}/method` } },
    );
}

/**
 * JSON-RPC answers each request of a batch by its id: two requests with one id would both run, and
 * the client could not tell their answers apart (the transport keeps one), so such a batch runs nothing.
 */
function refuseRepeatedIds(batch: readonly unknown[]): void {
  const seen = new Map<string, number>();
  batch.forEach((m, i) => {
    const { id, method } = (m ?? {}) as { id?: unknown; method?: unknown };
    if (method === undefined || (typeof id !== 'string' && typeof id !== 'number')) return;
    const key = JSON.stringify(id);
    const first = seen.get(key);
    if (first !== undefined)
      throw new ApiError(
        'request.invalid',
        `Messages ${first} and ${i} of the JSON-RPC batch are requests with the same id ${key}: each request of a batch needs its own id, by which its answer is told apart. Nothing was run.`,
        { source: { pointer: `/${i}/id` } },
      );
    seen.set(key, i);
  });
}
