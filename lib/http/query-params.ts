// Query parameters a route does not take are refused, never ignored: a client that misspells one
// learns it at once instead of getting an answer to another question.
import { ApiError } from './errors.ts';
import type { Query } from './request.ts';

/** 400 request.invalid naming the first parameter that is not among `allowed`. */
export function onlyQueryParams(query: Query, allowed: readonly string[]): void {
  const unknown = query.names().find((name) => !allowed.includes(name));
  if (unknown === undefined) return;
  const takes = allowed.length ? `it takes ${allowed.join(', ')}` : 'it takes none';
  throw new ApiError('request.invalid', `Unknown query parameter '${unknown.slice(0, 100)}': ${takes}.`, { source: { parameter: unknown.slice(0, 100) } });
}
