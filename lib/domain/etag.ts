// Entity tags of notes and entities (RFC 9110 8.8.3): the version of the item a PATCH or DELETE
// changes, i.e. its `updatedAt`, quoted. A request's If-Match names the versions it was made
// against; the store makes the match part of the write's own condition.

/** The ETag of an item last changed at `updatedAt`. */
export const etagOf = (updatedAt: string): string => `"${updatedAt}"`;

/**
 * The versions an If-Match header accepts: undefined when there is none or it is `*` (any current
 * version: the write needs the resource to exist anyway). Weak tags never match (strong
 * comparison, RFC 9110 13.1.1); a header with nothing usable accepts no version.
 */
export function acceptedVersions(header: string | undefined): string[] | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  return [...header.matchAll(/(W\/)?"([^"]*)"/g)].filter((m) => !m[1]).map((m) => m[2]!);
}
