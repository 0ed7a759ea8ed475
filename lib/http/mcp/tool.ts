// One MCP tool: its name, what it says of itself, the REST operation it mirrors (whose scope in
// lib/routes.ts it requires, exactly) and its input schema; the run gets the caller's principal.
// lib/http/mcp/server.ts registers them and turns what they throw into MCP tool errors.
import type * as z from 'zod/mini';
import type { Principal } from '../../auth/principal.ts';
import type { Route } from '../../routes.ts';
import type { WriteScope } from '../../store/idempotency.ts';

/** What a tool answers: the data (the result's `structuredContent`) and one short sentence of text for the model. */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

export interface McpTool<Shape extends z.core.$ZodShape = z.core.$ZodShape> {
  name: string;
  title: string;
  description: string;
  /** The row of the REST operation this tool does the work of: the tool requires its route's scope. */
  mirrors: Route;
  /** The arguments, as an object's shape (the SDK publishes it as the tool's JSON Schema). */
  input: Shape;
  readOnly: boolean;
  /** `scope`: the request's deadline (lib/deadline.ts), for the store's writes. */
  run(principal: Principal, args: z.output<z.ZodMiniObject<Shape>>, scope: WriteScope): Promise<ToolAnswer>;
}

/** Declares a tool, its `run` typed by its input. */
export const tool = <Shape extends z.core.$ZodShape>(t: McpTool<Shape>): McpTool => t;
