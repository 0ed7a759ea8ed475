// The rules' refusals as typed errors, in the manner of jose's errors: one small class per kind,
// each with a stable `code` to switch on, and nothing about HTTP. The store and the auth layer throw
// these too; lib/http/error-map.ts is the one place that turns them into a response.

/** A path into a JSON document: ['data', 'fields', 'name']. */
export type Path = ReadonlyArray<string | number>;

/** Where a refused value sits in the request: a JSON pointer into the body, or a query/path parameter. */
export interface InputLocation {
  pointer?: string;
  parameter?: string;
}

/** The location of a value in the JSON body, its path written as an RFC 6901 JSON pointer. */
export function pointer(path: Path): InputLocation {
  return { pointer: path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('') };
}

/** The location of a query or path parameter. */
export const parameter = (name: string): InputLocation => ({ parameter: name });

/** A value in the request breaks a rule; `location` says where it is. */
export class InvalidInput extends Error {
  static readonly code = 'ERR_INVALID_INPUT';
  readonly code = InvalidInput.code;

  constructor(
    readonly detail: string,
    readonly location: InputLocation = {},
  ) {
    super(detail);
    this.name = 'InvalidInput';
  }
}

/** The record a request names does not exist in the caller's workspace (or is being deleted). */
export class NotFound extends Error {
  static readonly code = 'ERR_NOT_FOUND';
  readonly code = NotFound.code;

  /** `location`: where the request names the record, when the body or a query parameter does (a parent, a link's target). */
  constructor(
    readonly what: string,
    readonly id: string,
    readonly detail = `No ${what} ${id} in this workspace.`,
    readonly location: InputLocation = {},
  ) {
    super(detail);
    this.name = 'NotFound';
  }
}

/** The request would create something that already exists. */
export class Conflict extends Error {
  static readonly code = 'ERR_CONFLICT';
  readonly code = Conflict.code;

  constructor(
    readonly detail: string,
    readonly location: InputLocation = {},
  ) {
    super(detail);
    this.name = 'Conflict';
  }
}

/** The resource is not at the version the request's If-Match names: nothing was changed. */
export class PreconditionFailed extends Error {
  static readonly code = 'ERR_PRECONDITION_FAILED';
  readonly code = PreconditionFailed.code;

  readonly detail: string;

  /** `named`: the versions If-Match names (lib/domain/etag.ts acceptedVersions); none when it held only weak tags (anything else is refused before: lib/domain/etag.ts isIfMatchValue). */
  constructor(
    readonly what: string,
    readonly id: string,
    named: readonly string[],
  ) {
    const detail =
      named.length === 0
        ? `If-Match names no version of the ${what} ${id} that can match: a weak entity tag (W/"…") never does, as writes compare tags strongly (RFC 9110 §13.1.1); send the ETag as GET answers it. Nothing was changed.`
        : `The ${what} ${id} has changed since the version If-Match names; read it again (its ETag) and retry. Nothing was changed.`;
    super(detail);
    this.detail = detail;
    this.name = 'PreconditionFailed';
  }
}

export type DomainError = InvalidInput | NotFound | Conflict | PreconditionFailed;

/**
 * A guard for the typed errors `names` lists (each class's code → its name), by code and name
 * rather than `instanceof`: a check that names every class keeps every class in each bundle that
 * maps errors (lib/http/error-map.ts), where by code a bundle keeps only the classes its code throws.
 */
export const typedErrorGuard =
  <E extends Error & { code: string }>(names: Record<E['code'], string>) =>
  (err: unknown): err is E =>
    err instanceof Error && Object.hasOwn(names, (err as { code?: unknown }).code as PropertyKey) && names[(err as E).code as E['code']] === err.name;

export const isDomainError = typedErrorGuard<DomainError>({
  ERR_INVALID_INPUT: 'InvalidInput',
  ERR_NOT_FOUND: 'NotFound',
  ERR_CONFLICT: 'Conflict',
  ERR_PRECONDITION_FAILED: 'PreconditionFailed',
});
