// `metadata.source` of entities and notes (Productboard's `ApiSource`): where a record came from in
// another system. lib/domain/metadata.ts merges and matches it.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedUrl, strictObject } from './build.ts';
import { nonBlank } from './common.ts';

const MAX_SOURCE_TEXT = 255;
const SourceText = /* @__PURE__ */ (() => nonBlank(MAX_SOURCE_TEXT))();
/** Productboard's entities' `ApiSource.url` bound (its notes' sets none): one schema for both, so the stricter. */
const MAX_SOURCE_URL = 1024;
const SourceUrl = /* @__PURE__ */ (() => checkedUrl(z.maxLength(MAX_SOURCE_URL)))();

/** What a create gives (and a read answers): every key optional. */
const ApiSource = /* @__PURE__ */ (() =>
  doc(strictObject({ system: z.optional(SourceText), recordId: z.optional(SourceText), url: z.optional(SourceUrl) }), {
    id: 'ApiSource',
    description: 'Where the record came from in another system',
  }))();

export const Metadata = /* @__PURE__ */ (() => doc(strictObject({ source: z.optional(ApiSource) }), { id: 'Metadata' }))();

/** What an update gives: a key set to a value replaces it, set to null removes it; `source: null` removes them all. */
export const MetadataUpdate = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      source: z.optional(
        z.nullable(
          strictObject({ system: z.optional(z.nullable(SourceText)), recordId: z.optional(z.nullable(SourceText)), url: z.optional(z.nullable(SourceUrl)) }),
        ),
      ),
    }),
    { id: 'MetadataUpdate' },
  ))();
