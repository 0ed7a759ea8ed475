// Entity tags of notes and entities (RFC 9110 8.8.3): the version of the item a PATCH or DELETE
// changes, quoted. A request's If-Match names the versions it was made against; the store makes the
// match part of the write's own condition.

/**
 * The version of a record last changed at `updatedAt` that has had `placed` records placed under it
 * (an entity's descendants, a note's links): what a conditional DELETE would remove with it is part of
 * its version, so a stale If-Match never removes a record its client did not see.
 */
export const versionOf = (updatedAt: string, placed: number | undefined): string => (placed ? `${updatedAt}+${placed}` : updatedAt);

/** The ETag of a version. */
export const etagOf = (version: string): string => `"${version}"`;

/**
 * The versions an If-Match header accepts: undefined when there is none or it is `*` (any current
 * version: the write needs the resource to exist anyway). Weak tags never match (strong
 * comparison, RFC 9110 13.1.1); a header with nothing usable accepts no version.
 */
export function acceptedVersions(header: string | undefined): string[] | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  return [...header.matchAll(/(W\/)?"([^"]*)"/g)].filter((m) => !m[1]).map((m) => m[2]!);
}

/** An entity-tag (RFC 9110 §8.8.3): optionally weak, its opaque part in double quotes. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\uffff]*"$/;

/** Whether an If-Match header is `*` or a list of entity-tags (RFC 9110 §13.1.1), the only forms it has. */
export const isIfMatchValue = (header: string): boolean => {
  if (header.trim() === '*') return true;
  const tags = header
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return tags.length > 0 && tags.every((t) => ENTITY_TAG.test(t));
};
