// The MCP Streamable HTTP transport's request headers, judged before the SDK's transport sees the
// request: its refusals name no header, its Accept check matches substrings (so it refuses `*/*`,
// which RFC 9110 §12.5.1 counts as accepting everything), and a batch's admission depends on the
// version named.
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

/** The media types the transport requires a client to accept: its answers are JSON, or an event stream. */
const ANSWERED = ['application/json', 'text/event-stream'] as const;

/** What the transport is told the client accepts, once the client's Accept is known to take both. */
export const TRANSPORT_ACCEPT = ANSWERED.join(', ');

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((element) => {
    const [range = '', ...params] = element.split(';').map((p) => p.trim().toLowerCase());
    const [type, subtype, ...rest] = range.split('/');
    if (!type || !subtype || rest.length > 0) return [];
    const weight = params.find((p) => p.startsWith('q='));
    const q = weight === undefined ? 1 : Number(weight.slice(2));
    return [{ type, subtype, q: Number.isFinite(q) ? q : 1 }];
  });
}

/** Whether `ranges` accept `mediaType`: the most specific range that matches it decides, and q=0 refuses it (RFC 9110 §12.5.1). */
function accepts(ranges: readonly MediaRange[], mediaType: string): boolean {
  const [type, subtype] = mediaType.split('/');
  const specificity = (r: MediaRange) =>
    r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === '*' ? 1 : r.type === '*' && r.subtype === '*' ? 0 : -1;
  const matching = ranges.filter((r) => specificity(r) >= 0);
  if (matching.length === 0) return false;
  const best = Math.max(...matching.map(specificity));
  return matching.some((r) => specificity(r) === best && r.q > 0);
}

/** Refuses a request whose Accept does not take both media types the transport may answer in. */
export function checkAccept(req: ApiRequest): void {
  const sent = req.headers.get('accept');
  const ranges = mediaRanges(sent ?? '');
  const refused = ANSWERED.filter((t) => !accepts(ranges, t));
  if (refused.length === 0) return;
  const what = sent === undefined ? 'The request has no Accept header' : `Accept ${JSON.stringify(sent.slice(0, 100))} does not accept ${refused.join(' or ')}`;
  throw new ApiError(
    'request.invalid',
    `${what}: the MCP Streamable HTTP transport requires a client to accept both ${ANSWERED.join(' and ')} (by name, or by a range such as */* or text/*).`,
    { source: { parameter: 'Accept' } },
  );
}
