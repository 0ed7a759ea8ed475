// The MCP endpoint's messages (JSON-RPC 2.0, the Model Context Protocol's Streamable HTTP
// transport) and the protected resource metadata (RFC 9728). The MCP SDK checks each message in
// full; these say what the endpoint takes and answers at the HTTP level.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, strictObject } from './build.ts';

/** MCP's request id (basic protocol, "Requests"): a string or an integer, never null as JSON-RPC would allow. */
const RequestId = /* @__PURE__ */ (() => z.union([z.string(), z.int()], { error: 'must be a string or an integer' }))();

/**
 * The members a message's kind allows, which the SDK holds each message to (its JSON-RPC schemas):
 * a request has `id` and `method`, a notification `method` alone (either with `params`), a response
 * `id` and `result`, an error response `error` (and `id` when known). Judged here, a refusal names
 * the member; the SDK says only "Invalid JSON-RPC message".
 */
function kindProblem(m: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown }, ctx: z.core.$RefinementCtx): void {
  const given = (['method', 'result', 'error'] as const).filter((k) => m[k] !== undefined);
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path], input: m[path as keyof typeof m] });
  if (given.length === 0) issue('method', "is required (or, in a response, 'result' or 'error')");
  for (const extra of given.slice(1)) issue(extra, `must not be given with '${given[0]}': a message is a request or notification, or a response`);
  if (given[0] !== 'method' && m.params !== undefined) issue('params', "must not be given without 'method'");
  if (given[0] === 'result' && m.id === undefined) issue('id', "is required with 'result'");
}

const JsonRpcMessage = /* @__PURE__ */ (() =>
  doc(
    strictObject(
      {
        jsonrpc: z.literal('2.0'),
        id: z.optional(RequestId),
        method: z.optional(z.string()),
        params: z.optional(z.looseObject({})),
        result: z.optional(z.looseObject({})),
        error: z.optional(z.looseObject({ code: z.int(), message: z.string() })),
      },
      z.superRefine(kindProblem),
    ),
    { id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 request (id, method), notification (method), response (id, result) or error response (error)' },
  ))();

/** A request, notification or response, or a batch of them. */
export const McpRequestBody = /* @__PURE__ */ (() =>
  doc(z.union([JsonRpcMessage, checkedArray(JsonRpcMessage, z.minLength(1))]), {
    id: 'McpRequestBody',
    description:
      'A JSON-RPC 2.0 message of the Model Context Protocol, or a batch of them under a protocol version before 2025-06-18 (each message spends the request budget as one request)',
  }))();

/** The answer to the request(s) a POST carried. */
export const McpResponseBody = /* @__PURE__ */ (() =>
  doc(z.union([JsonRpcMessage, z.array(JsonRpcMessage)]), { id: 'McpResponseBody', description: 'The JSON-RPC 2.0 response(s) to the request(s) posted' }))();

/** RFC 9728 §2. */
export const ProtectedResourceMetadata = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      resource: z.url(),
      authorization_servers: z.array(z.url()),
      bearer_methods_supported: z.array(z.literal('header')),
      scopes_supported: z.array(z.string()),
      resource_name: z.string(),
    }),
    { id: 'ProtectedResourceMetadata' },
  ))();
