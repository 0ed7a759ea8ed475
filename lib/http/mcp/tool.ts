// One MCP tool: its name, what it says of itself, the REST operation it mirrors (whose scope in
// lib/routes.ts it requires, exactly) and its input schema; the run gets the caller's principal.
// lib/http/mcp/server.ts registers them and turns what they throw into MCP tool errors.
import * as z from 'zod/mini';
import type { Principal } from '../../auth/principal.ts';
import type { Route } from '../../routes.ts';
import type { WriteScope } from '../../store/idempotency.ts';

/** What a tool answers: the data (the result's `structuredContent`) and one short sentence of text for the model. */
interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

interface ToolDeclaration<Shape extends z.core.$ZodShape> {
  name: string;
  title: string;
  description: string;
  /** The row of the REST operation this tool does the work of: the tool requires its route's scope. */
  mirrors: Route;
  /** The arguments, as an object's shape. */
  input: Shape;
  readOnly: boolean;
  /** `scope`: the request's deadline (lib/deadline.ts), for the store's writes. */
  run(principal: Principal, args: z.output<z.ZodMiniObject<Shape>>, scope: WriteScope): Promise<ToolAnswer>;
}

export interface McpTool<Shape extends z.core.$ZodShape = z.core.$ZodShape> extends Omit<ToolDeclaration<Shape>, 'input'> {
  /**
   * The arguments as a strict object, which the SDK publishes as the tool's JSON Schema (with
   * `additionalProperties: false`) and checks a call against: an argument the tool does not take is
   * refused, as the REST API refuses an unknown property, rather than dropped (a shape alone, the
   * SDK would wrap in an object that strips it).
   */
  input: z.ZodMiniObject<Shape, z.core.$strict>;
}

/** Declares a tool, its `run` typed by its input. */
export const tool = <Shape extends z.core.$ZodShape>(t: ToolDeclaration<Shape>): McpTool => ({ ...t, input: z.strictObject(t.input) });
