// What the OpenAPI document says of a schema: its component id and its description, in zod's global
// registry, which the OpenAPI generator (lib/http/openapi.ts) and the MCP server's tool listing read.
// The same in every function (no function reads the registry but `mcp`, and each pays a clone and a
// registry entry per documented schema at import for it): one code path deployed and tested.
// Anything that changes what a schema accepts (checks, refinements, defaults, messages) stays
// outside doc(); a schema's documentation is the only thing it adds.
import * as z from 'zod/mini';

/** `schema` documented: a string is its description, an object its metadata (`id`, `description`, …). */
export function doc<T extends z.ZodMiniType>(schema: T, meta: string | z.core.GlobalMeta): T {
  return schema.check(typeof meta === 'string' ? z.describe(meta) : z.meta(meta));
}
