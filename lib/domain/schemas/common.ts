// Building blocks of the request and response schemas (zod/mini: the runtime carries a few KiB of
// zod, not the whole library). Every shape the API reads or writes is made of these; the OpenAPI
// document is generated from the same objects (lib/http/openapi.ts).
// Each module-level schema is built inside a `/* @__PURE__ */` arrow called at once: esbuild may
// then drop the ones a function's bundle does not use. A bare zod call is a side effect it must
// keep, so one schema imported from a module would bring all of them (docs/performance.md).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedFormat, checkedInt, checkedString, isoDateTime, strictObject } from './build.ts';

/** Any RFC 9562 layout, either case (ids are stored lower-case: Uuid lower-cases them). */
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_PATTERN.test(v);

/** A uuid as the client may write it; parsed to lower case, the form every id is stored in. */
export const Uuid = /* @__PURE__ */ (() => checkedFormat('uuid', UUID_PATTERN, z.toLowerCase()))();

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDate = (s: string) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** YYYY-MM-DD, and a day the calendar has. */
export const IsoDate = /* @__PURE__ */ (() => checkedFormat('date', DATE_PATTERN, z.refine(isCalendarDate, { error: 'is not a day of the calendar' })))();

/** A timestamp as the service writes them (Date#toISOString). */
export const DateTime = /* @__PURE__ */ (() => isoDateTime())();

export const MAX_EMAIL = 254;
/**
 * An internationalized mailbox (RFC 6531): a dot-atom local part (RFC 5322 atext, or any visible
 * character beyond ASCII) at a domain of two or more labels (letters, digits, inner hyphens, or
 * visible characters beyond ASCII). No quoted local parts, no address literals, and nothing that is
 * a control, format or separator character (\p{C}, \p{Z}), which no mail system delivers to.
 */
const INTL = '[^\\x00-\\x7F\\p{C}\\p{Z}]';
const ATEXT = `(?:[A-Za-z0-9!#$%&'*+/=?^_\`{|}~-]|${INTL})`;
const LABEL_CHAR = `(?:[A-Za-z0-9]|${INTL})`;
// Hyphens only between characters; written so that each character has one way to match (no backtracking blow-up).
const LABEL = `${LABEL_CHAR}(?:-*${LABEL_CHAR})*`;
export const EMAIL_PATTERN = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@${LABEL}(?:\\.${LABEL})+$`, 'u');
/** An e-mail address (RFC 5321 bounds its length; the service compares addresses lower-cased). */
export const Email = /* @__PURE__ */ (() => checkedFormat('idn-email', EMAIL_PATTERN, z.maxLength(MAX_EMAIL)))();

/**
 * A visible character: neither white space nor a control character (NUL, the other C0 and C1
 * controls, DEL) nor a format character (zero-width space, joiners, word joiner, byte order mark,
 * soft hyphen, direction marks), all of which JavaScript's \S counts as visible.
 */
// Spelled out rather than \p{Cc}\p{Cf}: the pattern is published in JSON Schemas, and not every
// client's regular expressions (Python's re) know Unicode property classes. The control characters are the point.
// eslint-disable-next-line no-control-regex
const VISIBLE = /[^\s\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/;

/** A string with a visible character: "", "   ", "\u200B" and "\u0000" are all refused. */
export const nonBlank = (max: number) =>
  checkedString(z.minLength(1), z.maxLength(max), z.regex(VISIBLE, { error: 'must have a visible character, not only white space' }));

/** An absolute URL the service answers with. */
export const Url = /* @__PURE__ */ (() => z.url())();

export const SelfLinks = /* @__PURE__ */ (() => strictObject({ self: Url }))();

/** An entity's, a note's or a member's links: `self` in the API, `html` where a person sees it (lib/config.ts webUrl). */
export const RecordLinks = /* @__PURE__ */ (() => doc(strictObject({ self: Url, html: Url }), { id: 'RecordLinks' }))();

/** A list's `links`: `next` only while another page exists (the service specification's pagination rules). */
export const ListLinks = /* @__PURE__ */ (() => doc(strictObject({ next: z.optional(Url) }), { id: 'ListLinks' }))();

/** The list envelope of the service specification: `{data: [...], links: {next?}}`. */
export const listOf = <T extends z.ZodMiniType>(item: T) => strictObject({ data: z.array(item), links: ListLinks });

/** `{data: ...}`: how a single resource is answered. */
export const dataOf = <T extends z.ZodMiniType>(item: T) => strictObject({ data: item });

/** A type's name as a schema id begins: `feature` → `Feature`. */
export const pascal = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** `{id, type, links: {self, html}}`: a reference to an entity or a note. */
export const referenceTo = <T extends z.ZodMiniType>(type: T) => strictObject({ id: Uuid, type, links: RecordLinks });

// Query parameters. Values arrive as text; lib/http/validate.ts reads an integer or boolean
// parameter's text as one before the schema sees it, as OpenAPI's form style means.

export const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 100;

/** `pageCursor`: the opaque cursor of links.next. */
const PageCursor = /* @__PURE__ */ (() => doc(z.string(), 'The cursor of links.next; opaque'))();

/** `limit` (extension): the page size. */
const Limit = /* @__PURE__ */ (() => doc(checkedInt(z.minimum(1), z.maximum(MAX_LIMIT)), `Page size, ${DEFAULT_LIMIT} when omitted`))();

/** The parameters every list takes. */
export const pageParameters = /* @__PURE__ */ (() => ({ pageCursor: z.optional(PageCursor), limit: z.optional(Limit) }))();

/** A repeatable parameter (`fields[]=a&fields[]=b`). */
export const repeated = <T extends z.ZodMiniType>(item: T) => z.optional(checkedArray(item, z.minLength(1)));

/** One value or a non-empty list of them (alternatives, at most `max`), read as a list; `error` when it is neither. */
export const oneOrList = <T extends z.ZodMiniType>(item: T, max = 100, error?: string | ((issue: { input?: unknown }) => string)) =>
  z.pipe(
    z.union([item, checkedArray(item, z.minLength(1), z.maxLength(max))], error === undefined ? undefined : { error }),
    z.transform((v): Array<z.output<T>> => (Array.isArray(v) ? v : [v]) as Array<z.output<T>>),
  );

/** An operation that defines no query parameter: any parameter is refused. */
export const NoParameters = /* @__PURE__ */ (() => strictObject({}))();

/** Path parameters of an entity's routes (here, not in ./entity.ts, so the score route does not bundle the entity schemas). */
export const EntityPath = /* @__PURE__ */ (() => strictObject({ id: Uuid }))();
