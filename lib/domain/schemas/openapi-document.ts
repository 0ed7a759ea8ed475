// GET {base_url}/openapi.json answers the service's own OpenAPI 3.1 document (docs/openapi.json).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedString } from './build.ts';

export const OpenApiDocument = /* @__PURE__ */ (() =>
  doc(
    z.looseObject({
      openapi: checkedString(z.regex(/^3\.1\.\d+$/)),
      info: z.looseObject({ title: z.string(), version: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    }),
    { id: 'OpenApiDocument', description: 'This document' },
  ))();
