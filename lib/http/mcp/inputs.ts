// Input schemas several tools share: a field selection, a page size and a cursor.
import * as z from 'zod/mini';

const FieldId = z.string().check(z.minLength(1), z.maxLength(200));

/** Which fields a record shows, as the REST search's `data.fields` takes it. */
export const Fields = z.optional(
  z
    .union([z.literal('all'), z.array(FieldId).check(z.minLength(1))], { error: "must be the string 'all' or a non-empty array of field identifiers" })
    .check(z.describe("Fields to include: 'all', or a list of field ids; the non-empty standard fields when omitted")),
);

export const pageLimit = (what: string, max: number, fallback: number) =>
  z.optional(z.int().check(z.minimum(1), z.maximum(max), z.describe(`${what} per page, ${fallback} when omitted`)));

export const Cursor = z.optional(z.string().check(z.describe('The nextCursor of the previous page')));
