// The error envelope of the service specification (ErrorResponse, Error, ErrorSource) and the codes
// it carries. lib/http/errors.ts gives each code its status and title; the token endpoint answers
// its own {error, error_description} body instead (./token.ts).
// Module-level schemas are built in `/* @__PURE__ */` arrows so bundles drop unused ones (./common.ts).
import * as z from 'zod/mini';
import { doc } from '#lib/domain/schemas/doc.ts';
import { checkedArray, checkedString, strictObject } from './build.ts';

export const ERROR_CODES = [
  'request.invalid',
  'request.malformed',
  'auth.invalid',
  'auth.accessDenied',
  'resource.notFound',
  'route.notFound',
  // Extension: a method the path does not take (the MCP endpoint takes only POST), with Allow.
  'request.methodNotAllowed',
  'request.timeout',
  // Extension: an If-Match that names another version than the current one (RFC 9110 13.1.1).
  'request.preconditionFailed',
  // Extensions (the specification has no code for them): a link or key that already exists, a body over the limit.
  'conflict.uniqueViolation',
  'request.tooLarge',
  'rate.limitExceeded',
  // Extension: a request line and headers larger than the server reads (RFC 6585's 431), answered by the gateway.
  'request.headersTooLarge',
  'internal.serverError',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const MAX_TITLE = 255;
export const MAX_DETAIL = 1000;

const ErrorSource = /* @__PURE__ */ (() =>
  doc(
    strictObject({
      pointer: z.optional(doc(z.string(), 'RFC 6901 JSON Pointer into the request body')),
      parameter: z.optional(doc(z.string(), 'The offending query or path parameter')),
    }),
    { id: 'ErrorSource' },
  ))();

/** One error; `codes` narrows `code` to those one status can carry. */
const errorItem = (codes: readonly ErrorCode[] = ERROR_CODES) =>
  strictObject({
    code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    title: checkedString(z.maxLength(MAX_TITLE)),
    detail: checkedString(z.minLength(1), z.maxLength(MAX_DETAIL)),
    source: z.optional(ErrorSource),
  });

/** The envelope; `codes` narrows the codes it may carry. */
export const errorResponse = (codes: readonly ErrorCode[] = ERROR_CODES) =>
  strictObject({
    id: doc(checkedString(z.minLength(1)), 'Identifies this occurrence; equals the X-Request-Id header'),
    errors: checkedArray(errorItem(codes), z.minLength(1)),
  });
