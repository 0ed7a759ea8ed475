// What the `mcp` function's bundle loads instead of four packages the MCP SDK imports but this server
// never runs (infra/bundling.ts): ajv and ajv-formats (McpServer's default JSON Schema validator,
// which checks elicitation answers; lib/http/mcp/server.ts passes its own and sends no elicitation),
// zod 3 and zod-to-json-schema (the SDK's branch for zod 3 schemas; every tool's schema is zod 4).
// Reaching one of them is a defect in that reasoning, so it throws rather than pretend.
/* global module */
function unused() {
  throw new Error('The MCP server reached a package its bundle leaves out (lib/http/mcp/sdk-unused.bundled.cjs).');
}
// ajv's and ajv-formats' default export, zod 3's object() and zod-to-json-schema's converter.
module.exports = Object.assign(unused, { object: unused, zodToJsonSchema: unused });
