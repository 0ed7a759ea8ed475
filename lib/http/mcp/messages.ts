// Requests this server refuses before the SDK sees them. Their `params` the SDK checks with these
// same schemas, but answers a failure as JSON-RPC's "Internal error" (-32603) carrying the schema
// library's issue list: a server fault, in the client's name. A tool the server does not have it
// answers as a tool result with its own prefix, where MCP 2025-06-18 (server/tools, "Error
// Handling") calls for a protocol error; a tools/list cursor, which no answer gave, it ignores. Checked here first, they get "Invalid params" (-32602,
// JSON-RPC 2.0 §5.1) with a detail in the API's words, and never reach the server.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCErrorResponse,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { TOOLS } from './server.ts';
import { inputProblem } from '../../domain/input.ts';

/** The requests this server answers (lib/http/mcp/server.ts), by method: the schema the SDK holds each to. */
const REQUESTS: Readonly<Record<string, z.ZodMiniType>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

/** A tools/call naming one of this server's tools; the refusal of any other names them all. */
const KNOWN_TOOL = z.object({ params: z.object({ name: z.enum(TOOLS.map((t) => t.name) as [string, ...string[]]) }) });

type Message = { id?: unknown; method?: unknown };

/** What is wrong with the params of a request to `method`, in the API's words; undefined when nothing is. */
function paramsProblem(method: string, message: unknown): string | undefined {
  const problem = inputProblem(REQUESTS[method]!, message);
  if (problem) return problem;
  if (method === 'tools/call') return inputProblem(KNOWN_TOOL, message);
  // tools/list answers every tool on one page and issues no cursor, so any cursor is invalid (MCP pagination, "Error Handling").
  if (method === 'tools/list' && (message as { params?: { cursor?: unknown } }).params?.cursor !== undefined)
    return "'/params/cursor' is no cursor of this server: tools/list answers every tool at once, with no nextCursor; send it without a cursor.";
  return undefined;
}

/** The answer to each request of `messages` whose params its method does not take, by the request's index. */
function invalidParams(messages: readonly unknown[]): Map<number, JSONRPCErrorResponse> {
  const answers = new Map<number, JSONRPCErrorResponse>();
  messages.forEach((m, i) => {
    const { id, method } = m as Message;
    // A notification has no id and gets no answer; the SDK ignores one it cannot read.
    if (typeof method !== 'string' || !Object.hasOwn(REQUESTS, method) || (typeof id !== 'string' && typeof id !== 'number')) return;
    const problem = paramsProblem(method, m);
    if (problem) answers.set(i, { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params of ${method}: ${problem}` } });
  });
  return answers;
}

/**
 * The answer to a POST's body (one message, or a batch): what `serve` answers to the messages that
 * pass, with the refusals above. A batch is answered with an array, even of one response (JSON-RPC
 * 2.0 §6); undefined when nothing is to be answered (notifications and responses only: 202).
 */
export async function answerMessages(body: unknown, serve: (message: unknown) => Promise<unknown>): Promise<unknown> {
  const batch = Array.isArray(body);
  const messages: readonly unknown[] = batch ? body : [body];
  const refused = invalidParams(messages);
  const passed = messages.filter((_, i) => !refused.has(i));
  const answers: unknown[] = [...refused.values()];
  if (passed.length > 0) {
    const answered = await serve(batch ? passed : passed[0]);
    if (answered !== undefined) answers.push(...(Array.isArray(answered) ? (answered as unknown[]) : [answered]));
  }
  if (answers.length === 0) return undefined;
  return batch ? answers : answers[0];
}
