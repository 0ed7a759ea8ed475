// The customer demand behind a plan (extension; lib/domain/demand.ts has the rule).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedInt, strictObject } from './build.ts';
import { dataOf, Url, Uuid } from './common.ts';

const CustomerDemand = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      id: doc(Uuid, 'The initiative, objective, key result or release'),
      type: z.literal('customerDemand'),
      fields: strictObject({
        demand: doc(checkedInt(z.minimum(0)), 'Σ of the customer scores of the linked product hierarchy entities, each counted once'),
        linkedEntities: doc(checkedInt(z.minimum(0)), 'Live product hierarchy entities linked to it'),
        countedEntities: doc(checkedInt(z.minimum(0)), 'Those whose score makes the sum: linked entities without a linked ancestor'),
        pointInTime: doc(z.boolean(), 'Whether the sum was read as of one moment (at most 100 items)'),
      }),
      links: strictObject({ self: Url, target: doc(Url, 'The entity') }),
    }),
    { id: 'CustomerDemand' },
  ))();

export const CustomerDemandResponse = /* @__PURE__ */ (() => doc(dataOf(CustomerDemand), { id: 'CustomerDemandResponse' }))();
