// A conversation note's content: the parts of a conversation (chat, e-mail, support ticket), each
// kept by the external system's id of the part. The bounds keep the largest conversation far under
// DynamoDB's 400 KB item: 50 parts of at most 1,000 + 100 + 100 characters are at most ~180 KB even
// when every character takes three bytes of UTF-8.
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedString, isoDateTime, once, strictObject } from './build.ts';

export const MAX_PARTS = 50;
const MAX_PART_CONTENT = 1_000;
const MAX_EXTERNAL_ID = 100;
const MAX_AUTHOR_NAME = 100;

const AUTHOR_TYPES = ['customer', 'agent'] as const;

const ExternalId = /* @__PURE__ */ (() =>
  doc(checkedString(z.minLength(1), z.maxLength(MAX_EXTERNAL_ID)), "The part's id in the external system; a part is told apart by it"))();

/** One part: who wrote what, and when (ISO 8601 with a zone, kept as written). */
const ConversationPart = /* @__PURE__ */ (() =>
  strictObject({
    externalId: ExternalId,
    authorType: z.enum(AUTHOR_TYPES),
    authorName: z.optional(checkedString(z.maxLength(MAX_AUTHOR_NAME))),
    content: checkedString(z.maxLength(MAX_PART_CONTENT)),
    timestamp: isoDateTime({ offset: true }),
  }))();
type ConversationPart = z.output<typeof ConversationPart>;

const PARTS = 'The parts of the conversation, in the order given';

/** The content of a conversation note, as reads answer it. */
export const ConversationContent = /* @__PURE__ */ (() => doc(checkedArray(ConversationPart, z.maxLength(MAX_PARTS)), PARTS))();

/** Parts as a write gives them: each externalId once. */
export const ConversationPartsInput = /* @__PURE__ */ (() =>
  doc(
    checkedArray(
      ConversationPart,
      z.maxLength(MAX_PARTS),
      z.superRefine((parts, ctx) => {
        const seen = new Set<string>();
        parts.forEach((p, i) => {
          if (seen.has(p.externalId))
            ctx.addIssue({
              code: 'custom',
              message: `gives externalId '${p.externalId}' a second time: each part once`,
              path: [i, 'externalId'],
              input: p.externalId,
            });
          seen.add(p.externalId);
        });
      }),
    ),
    PARTS,
  ))();

/**
 * `removeItems` on a conversation's content: the parts by `{externalId}`, or by the bare externalId.
 * Built when a patch first removes parts, not at import: few requests do (./build.ts says why).
 */
export const conversationPartRefs = /* @__PURE__ */ once(() =>
  z.pipe(
    checkedArray(z.union([strictObject({ externalId: ExternalId }), ExternalId]), z.minLength(1), z.maxLength(MAX_PARTS)),
    z.transform((refs) => refs.map((r) => (typeof r === 'string' ? { externalId: r } : r))),
  ),
);
