// The customer score resource of the service specification.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedInt, strictObject } from './build.ts';
import { dataOf, Url, Uuid } from './common.ts';

const CustomerScore = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: doc(Uuid, 'The scored product hierarchy entity'),
      type: z.literal('customerScore'),
      fields: strictObject({ score: doc(checkedInt(z.minimum(0)), '0 when the entity has no customer importance data') }),
      links: strictObject({ self: Url }),
    }),
    { id: 'CustomerScore' },
  ))();

export const CustomerScoreResponse = /* @__PURE__ */ (() => doc(dataOf(CustomerScore), { id: 'CustomerScoreResponse' }))();
