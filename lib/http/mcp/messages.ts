// Requests this server refuses before the SDK sees them. Their `params` the SDK checks with these
// same schemas, but answers a failure as JSON-RPC's "Internal error" (-32603) carrying the schema
// library's issue list: a server fault, in the client's name. A tool the server does not have it
// answers as a tool result with its own prefix, where MCP 2025-06-18 (server/tools, "Error
// Handling") calls for a protocol error; a tools/list cursor, which no answer gave, it ignores.
// Checked here first, they get "Invalid params" (-32602, JSON-RPC 2.0 §5.1) with a detail in the
// API's words, and never reach the server. A tool's arguments the SDK checks against the tool's
// input schema in its own words, with no pointer: checked here first, a refusal is the tool error
// every other refusal is, its detail and `source` those of the REST API's input checks. A `_meta`
// of any other message (a notification, a response, a method the server lacks) the transport
// refuses with the whole POST, naming nothing: checked here first, the refusal points at it.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  RequestSchema,
  ResultSchema,
  type CallToolResult,
  type JSONRPCErrorResponse,
  type JSONRPCResultResponse,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { toolError, TOOLS } from './server.ts';
import type { McpTool } from './tool.ts';
import { InvalidInput, pointer } from '../../domain/errors.ts';
import { inputProblem, parseInput } from '../../domain/input.ts';
import { apiErrorOf } from '../error-map.ts';
import { ApiError } from '../errors.ts';

/** The requests this server answers (lib/http/mcp/server.ts), by method: the schema the SDK holds each to. */
const REQUESTS: Readonly<Record<string, z.ZodMiniType>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

/**
 * What the SDK's transport holds every message's `_meta` to, in its own schemas (so the rule is
 * theirs): a request's or notification's params, a response's result. The transport refuses a
 * POST with one it does not take as "Invalid JSON-RPC message", naming nothing.
 */
const messageMeta = () => z.object({ params: z.optional(RequestSchema.shape.params), result: z.optional(ResultSchema) });

const hasMeta = (m: unknown) => {
  const { params, result } = (m ?? {}) as { params?: { _meta?: unknown }; result?: { _meta?: unknown } };
  return params?._meta !== undefined || result?._meta !== undefined;
};

type Message = { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown; cursor?: unknown } };

/** What is wrong with the params of a request to `method`, in the API's words; undefined when nothing is. */
function paramsProblem(method: string, message: unknown): string | undefined {
  const problem = inputProblem(REQUESTS[method]!, message);
  if (problem) return problem;
  if (method === 'tools/call') {
    if (TOOLS.some((t) => t.name === (message as Message).params?.name)) return undefined;
    // Only a refusal builds the schema that words it, naming every tool.
    return inputProblem(z.object({ params: z.object({ name: z.enum(TOOLS.map((t) => t.name) as [string, ...string[]]) }) }), message);
  }
  // tools/list answers every tool on one page and issues no cursor, so any cursor is invalid (MCP pagination, "Error Handling").
  if (method === 'tools/list' && (message as Message).params?.cursor !== undefined)
    return "'/params/cursor' is no cursor of this server: tools/list answers every tool at once, with no nextCursor; send it without a cursor.";
  return undefined;
}

/** The tool error for `args` (an object, or absent: none) that `t` does not take; undefined when it takes them. */
function argumentsRefused(t: McpTool, args: unknown): CallToolResult | undefined {
  const given = (args ?? {}) as Record<string, unknown>;
  const takes = Object.keys(t.input.shape);
  // Named here with those the tool takes: the input checks would call the arguments "the body".
  const unknown = Object.keys(given).find((k) => !takes.includes(k));
  if (unknown !== undefined)
    return toolError(
      new ApiError('request.invalid', `Unknown argument '${unknown.slice(0, 60)}' of tool ${t.name}; it takes ${takes.join(', ')}.`, {
        source: pointer([unknown]),
      }),
    );
  try {
    parseInput(t.input, given, 'body');
    return undefined;
  } catch (err) {
    if (!(err instanceof InvalidInput)) throw err;
    return toolError(apiErrorOf(err)!);
  }
}

/** The answer to each request of `messages` refused here, by the request's index. */
function refusals(messages: readonly unknown[]): Map<number, JSONRPCErrorResponse | JSONRPCResultResponse> {
  const answers = new Map<number, JSONRPCErrorResponse | JSONRPCResultResponse>();
  messages.forEach((m, i) => {
    const { id, method, params } = m as Message;
    // A notification has no id and gets no answer; the SDK ignores one it cannot read.
    if (typeof method !== 'string' || !Object.hasOwn(REQUESTS, method) || (typeof id !== 'string' && typeof id !== 'number')) return;
    const problem = paramsProblem(method, m);
    if (problem) {
      answers.set(i, { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params of ${method}: ${problem}` } });
      return;
    }
    const called = method === 'tools/call' ? TOOLS.find((t) => t.name === params?.name) : undefined;
    const refused = called && argumentsRefused(called, params?.arguments);
    if (refused) answers.set(i, { jsonrpc: '2.0', id, result: refused });
  });
  return answers;
}

/**
 * Refuses the POST when a message `serve` would get has a `_meta` the transport refuses (the others
 * were answered above): in the API's words, pointing at it (`/<index>/...` in a batch).
 */
function checkMeta(messages: readonly unknown[], batch: boolean, refused: ReadonlyMap<number, unknown>): void {
  // Most messages carry no `_meta`: only one that does builds the schema.
  const sent = messages.map((m, i) => (refused.has(i) || !hasMeta(m) ? {} : m));
  if (!sent.some(hasMeta)) return;
  try {
    parseInput(batch ? z.array(messageMeta()) : messageMeta(), batch ? sent : sent[0], 'body');
  } catch (err) {
    if (!(err instanceof InvalidInput)) throw err;
    throw apiErrorOf(err)!;
  }
}

/**
 * The answer to a POST's body (one message, or a batch): what `serve` answers to the messages that
 * pass, with the refusals above. A batch is answered with an array, even of one response (JSON-RPC
 * 2.0 §6); undefined when nothing is to be answered (notifications and responses only: 202).
 */
export async function answerMessages(body: unknown, serve: (message: unknown) => Promise<unknown>): Promise<unknown> {
  const batch = Array.isArray(body);
  const messages: readonly unknown[] = batch ? body : [body];
  const refused = refusals(messages);
  checkMeta(messages, batch, refused);
  const passed = messages.filter((_, i) => !refused.has(i));
  const answers: unknown[] = [...refused.values()];
  if (passed.length > 0) {
    const answered = await serve(batch ? passed : passed[0]);
    if (answered !== undefined) answers.push(...(Array.isArray(answered) ? (answered as unknown[]) : [answered]));
  }
  if (answers.length === 0) return undefined;
  return batch ? answers : answers[0];
}
