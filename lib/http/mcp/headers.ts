// The MCP Streamable HTTP transport's request headers, judged before the SDK's transport sees the
// request: its refusals name no header, and a batch's admission depends on the version named.
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors.ts';
import type { ApiRequest } from '../request.ts';

const VERSION_HEADER = 'MCP-Protocol-Version';

/** A lone initialize request: it negotiates its version in its params, so the SDK's transport does not judge the header on it. */
const isLoneInitialize = (body: unknown) => !Array.isArray(body) && (body as { method?: unknown } | null)?.method === 'initialize';

/**
 * The protocol version a request is under: the one its header names, which must be one this server
 * supports, or the one a server assumes without the header (Streamable HTTP transport, "Protocol
 * Version Header"). A lone initialize request's header is passed on unjudged, as the SDK does.
 */
export function protocolVersion(req: ApiRequest, body: unknown): string {
  const sent = req.headers.get(VERSION_HEADER.toLowerCase());
  if (sent === undefined) return DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(sent) || isLoneInitialize(body)) return sent;
  throw new ApiError(
    'request.invalid',
    `${VERSION_HEADER} ${JSON.stringify(sent.slice(0, 60))} is not a protocol version this server supports; it supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    { source: { parameter: VERSION_HEADER } },
  );
}
