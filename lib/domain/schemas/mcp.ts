// The MCP endpoint's messages (JSON-RPC 2.0, the Model Context Protocol's Streamable HTTP
// transport) and the protected resource metadata (RFC 9728). The MCP SDK checks each message in
// full; these say what the endpoint takes and answers at the HTTP level.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, strictObject } from './build.ts';

const JsonRpcMessage = /* @__PURE__ */ (() => doc(z.looseObject({ jsonrpc: z.literal('2.0') }), { id: 'JsonRpcMessage' }))();

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
