// The customer score resource of the service specification.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { dataOf, Url, Uuid } from './common.ts';

export const CustomerScore = /* @__PURE__ */ (() => z
  .strictObject({
    id: Uuid.check(z.describe('The scored product hierarchy entity')),
    type: z.literal('customerScore'),
    fields: z.strictObject({ score: z.int().check(z.minimum(0), z.describe('0 when the entity has no customer importance data')) }),
    links: z.strictObject({ self: Url }),
  })
  .check(z.meta({ id: 'CustomerScore' })))();

export const CustomerScoreResponse = /* @__PURE__ */ (() => dataOf(CustomerScore).check(z.meta({ id: 'CustomerScoreResponse' })))();
