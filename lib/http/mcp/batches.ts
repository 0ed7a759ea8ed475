// JSON-RPC batches on the MCP endpoint. Protocol version 2025-06-18 removed them ("Remove support for
// JSON-RPC batching", the specification's changelog), so a request naming that version or a later
// one may not send one; an older client may, and each message of its batch spends the request
// budget as a request of its own would, so a batch is no way around the limit.
import { ApiError } from '../errors.ts';
import { spendMore } from '../middleware/rate-limit.ts';
import type { ApiRequest } from '../request.ts';

/** The first protocol version without batches. */
const BATCHES_REMOVED_IN = '2025-06-18';
/** What a server assumes when a request names no version (Streamable HTTP transport, "Protocol Version Header"). */
const ASSUMED_VERSION = '2025-03-26';

/** Refuses a batch the request's protocol version does not allow; charges an allowed one's further messages. */
export async function admitBatch(req: ApiRequest, body: unknown): Promise<void> {
  if (!Array.isArray(body)) return;
  const version = req.headers.get('mcp-protocol-version') ?? ASSUMED_VERSION;
  // The versions are dates, so they compare as strings.
  if (version >= BATCHES_REMOVED_IN) {
    throw new ApiError(
      'request.invalid',
      `A JSON-RPC batch (${body.length} messages) under MCP protocol version ${version}: batches were removed in ${BATCHES_REMOVED_IN}; send one message per request.`,
    );
  }
  await spendMore(req, body.length - 1);
}
