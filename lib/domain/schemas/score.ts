// The customer score resource of the service specification.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { dataOf, Url, Uuid } from './common.ts';

export const CustomerScore = /* @__PURE__ */ (() => doc(z.strictObject({
    id: doc(Uuid, 'The scored product hierarchy entity'),
    type: z.literal('customerScore'),
    fields: z.strictObject({ score: doc(z.int().check(z.minimum(0)), '0 when the entity has no customer importance data') }),
    links: z.strictObject({ self: Url }),
  }), { id: 'CustomerScore' }))();

export const CustomerScoreResponse = /* @__PURE__ */ (() => doc(dataOf(CustomerScore), { id: 'CustomerScoreResponse' }))();
