// Requests whose `params` their method does not take. The SDK checks them with these same schemas,
// but answers a failure as JSON-RPC's "Internal error" (-32603) carrying the schema library's issue
// list: a server fault, in the client's name. Checked here first, they get "Invalid params" (-32602,
// JSON-RPC 2.0 §5.1) with a detail in the API's words, and never reach the server.
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCError,
} from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/mini';
import { inputProblem } from '../../domain/input.ts';

/** The requests this server answers (lib/http/mcp/server.ts), by method: the schema the SDK holds each to. */
const REQUESTS: Readonly<Record<string, z.ZodMiniType>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

type Message = { id?: unknown; method?: unknown };

/** The answer to each request of `messages` whose params its method does not take, by the request's index. */
function invalidParams(messages: readonly unknown[]): Map<number, JSONRPCError> {
  const answers = new Map<number, JSONRPCError>();
  messages.forEach((m, i) => {
    const { id, method } = m as Message;
    const schema = typeof method === 'string' && Object.hasOwn(REQUESTS, method) ? REQUESTS[method] : undefined;
    // A notification has no id and gets no answer; the SDK ignores one it cannot read.
    if (!schema || (typeof id !== 'string' && typeof id !== 'number')) return;
    const problem = inputProblem(schema, m);
    if (problem) answers.set(i, { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidParams, message: `Invalid params of ${String(method)}: ${problem}` } });
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
