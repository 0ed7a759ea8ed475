// What the OpenAPI document says of a schema: its component id and its description. Only readers
// of zod's global registry need it: the OpenAPI generator (lib/http/openapi.ts) and the MCP server's
// tool listing. Every other deployed function loads ./doc.bundled.ts instead (infra/bundling.ts),
// where doc() returns the schema itself: no check, no clone and no registration at import, and no
// no-op check run on every parse. Anything that changes what a schema accepts (checks, refinements,
// defaults, messages) stays outside doc(); a schema's documentation is the only thing it adds.
import * as z from 'zod/mini';

/** `schema` documented: a string is its description, an object its metadata (`id`, `description`, …). */
export function doc<T extends z.ZodMiniType>(schema: T, meta: string | z.core.GlobalMeta): T {
  return schema.check(typeof meta === 'string' ? z.describe(meta) : z.meta(meta));
}
