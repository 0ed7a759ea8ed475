// The named patches: each known, accepted difference between our responses and Productboard's
// schemas, applied to a copy of Productboard's document before a response is validated. Every
// patch has a row in docs/compatibility.md (test/compat/documents.test.ts holds the two equal),
// and test/compat/compat.test.ts fails when a patch is no longer needed by any response.
//
// A gap we mean to close is NOT a patch: it stays a failure, recorded in
// test/compat/baseline.json until the behaviour exists.
import type { DocumentName, Json } from './productboard.ts';

/** One change to Productboard's document; each checks that the document still has what it changes. */
export type SchemaEdit =
  /** Drop `property` from the `required` list of the schema at `at`. */
  | { op: 'unrequire'; at: string; property: string }
  /** Give the object schema at `at` its own schema for `property` (where it had only additionalProperties). */
  | { op: 'defineProperty'; at: string; property: string; schema: Json }
  /** Add `values` to the enum of the schema at `at` (none of them in it yet). */
  | { op: 'extendEnum'; at: string; values: readonly string[] };

export interface SchemaPatch {
  /** Stable kebab-case name, the key of its row in docs/compatibility.md. */
  name: string;
  /** Why we differ: the rule that wins over Productboard's schema. */
  reason: string;
  /** Where the difference shows. */
  where: {
    documents: readonly DocumentName[];
    /** Productboard operationIds, or every operation of `documents`. */
    operations: readonly string[] | '*';
    statuses: readonly number[];
    /**
     * JSON Pointers into the response body (`*` = any one segment). Without the patch, every
     * mismatch it covers must lie at or under one of them; anything else is reported.
     */
    paths: readonly string[];
  };
  edits: readonly SchemaEdit[];
}

export const PATCHES: readonly SchemaPatch[] = [
  {
    name: 'links-next-absent-on-last-page',
    reason:
      "The service specification, pagination rule 4: `links.next` is absent on the last page. Productboard's `ListLinks` requires `next` (null on the last page).",
    where: {
      documents: ['entities', 'notes', 'members', 'teams', 'webhooks'],
      operations: '*',
      statuses: [200],
      paths: ['/links/next', '/data/relationships/links/next', '/data/*/relationships/links/next'],
    },
    edits: [{ op: 'unrequire', at: '/components/schemas/ListLinks', property: 'next' }],
  },
  {
    name: 'webhook-event-types-ours',
    reason:
      "Event types beyond Productboard's `WebhookEventType`: `customer-score.updated` (the score, the reason the service exists), `product.deleted` and `component.deleted` (every hierarchy entity's delete is an event). A subscription may name them.",
    where: {
      documents: ['webhooks'],
      operations: ['getWebhook', 'listWebhooks'],
      statuses: [200],
      paths: ['/data/fields/events/*/eventType', '/data/*/fields/events/*/eventType'],
    },
    edits: [{ op: 'extendEnum', at: '/components/schemas/WebhookEventType', values: ['customer-score.updated', 'product.deleted', 'component.deleted'] }],
  },
];
