// Schema builders that build each schema once. Building a zod schema is interpreted code run at
// import (every instance runs its traits' initializers), and it is most of a function's module init
// beyond parsing the code (docs/performance.md "What runs at import"). zod/mini's `.check(...)` builds
// the schema, then a clone holding the checks; `z.strictObject` builds its own `z.never()` catchall.
// These give the same schema (same parse results, same issues, same JSON Schema) with the checks in
// its definition, no clone, and one catchall shared by every strict object.
import * as z from 'zod/mini';
import { _int, _isoDateTime, _stringFormat, _url } from 'zod/v4/core';

type Check<T> = z.core.CheckFn<T> | z.core.$ZodCheck<T>;

/** The catchall of every strict object: no other key. Never parses anything, so one serves them all. */
const NO_OTHER_KEY = /* @__PURE__ */ (() => z.never())();

/** `z.strictObject(shape).check(...checks)`, built once. */
export const strictObject = <S extends z.core.$ZodLooseShape>(shape: S, ...checks: z.core.$ZodCheck<z.output<z.ZodMiniObject<S, z.core.$strict>>>[]) =>
  new z.ZodMiniObject({ type: 'object', shape, catchall: NO_OTHER_KEY, checks }) as z.ZodMiniObject<S, z.core.$strict>;

/** `z.string().check(...checks)`, built once. */
export const checkedString = (...checks: Check<string>[]) =>
  new z.ZodMiniString({ type: 'string', checks: checks as z.core.$ZodCheck<string>[] }) as z.ZodMiniString<string>;

/** `z.catchall(z.object(shape), catchall).check(...checks)`, built once: one object, not an object and its clone. */
export const objectWithCatchall = <S extends z.core.$ZodLooseShape, C extends z.core.$ZodType>(
  shape: S,
  catchall: C,
  ...checks: z.core.$ZodCheck<z.output<z.ZodMiniObject<S, z.core.$catchall<C>>>>[]
) => new z.ZodMiniObject({ type: 'object', shape, catchall, checks }) as z.ZodMiniObject<S, z.core.$catchall<C>>;

/** `z.int().check(...checks)`, built once. */
export const checkedInt = (...checks: z.core.$ZodCheck<number>[]) => _int(z.ZodMiniNumberFormat, { checks } as never);

/** `z.array(element).check(...checks)`, built once. */
export const checkedArray = <T extends z.core.$ZodType>(element: T, ...checks: z.core.$ZodCheck<z.output<T>[]>[]) =>
  new z.ZodMiniArray({ type: 'array', element, checks }) as unknown as z.ZodMiniArray<T>;

/** `z.stringFormat(format, pattern).check(...checks)`, built once. */
export const checkedFormat = <F extends string>(format: F, pattern: RegExp, ...checks: z.core.$ZodCheck<string>[]) =>
  _stringFormat(z.ZodMiniCustomStringFormat, format, pattern, { checks } as never) as z.ZodMiniCustomStringFormat<F>;

/** `z.url().check(...checks)`, built once. */
export const checkedUrl = (...checks: z.core.$ZodCheck<string>[]) => _url(z.ZodMiniURL, { checks } as never);

/**
 * `z.iso.datetime(params).check(...checks)`, built once. Without `z.iso`: esbuild keeps a namespace
 * re-export whole, so `z.iso.…` would bring the date, time and duration formats (and their patterns)
 * into every bundle that names it.
 */
export const isoDateTime = (params?: Parameters<typeof z.iso.datetime>[0], ...checks: z.core.$ZodCheck<string>[]) =>
  _isoDateTime(z.ZodMiniISODateTime, { ...(params as object), checks } as never);

/**
 * A schema built on first use, then kept: for what only a rare branch of a request needs (a patch
 * removing conversation parts, a filter few lists give). What every request needs is built at
 * import instead: building it on the first request would only move the cost into that request.
 */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
