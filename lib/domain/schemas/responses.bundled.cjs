// What deployed bundles load instead of lib/domain/schemas/responses.ts (infra/bundling.ts): nothing.
// CommonJS, so esbuild lets the handlers' named imports through; each is undefined at run time, where
// nothing reads a declaration's response schemas.
/* global module */
module.exports = {};
