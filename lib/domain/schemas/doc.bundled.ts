// What deployed functions but `mcp` load instead of ./doc.ts (infra/bundling.ts): nothing at run time
// reads a schema's documentation there, so doc() is the identity.
import type { doc as documented } from './doc.ts';

export const doc: typeof documented = (schema) => schema;
