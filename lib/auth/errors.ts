// The auth layer's typed errors (same shape as lib/domain/errors.ts: a stable `code`, no HTTP).
// The token endpoint's OAuth errors are apart (./token-errors.ts): they render themselves.
import { typedErrorGuard } from '../domain/errors.ts';
import { wordList } from '../domain/word-lists.ts';

/** The bearer credential is missing, malformed, unknown, expired or revoked, or its member is gone. */
export class Unauthenticated extends Error {
  static readonly code = 'ERR_UNAUTHENTICATED';
  readonly code = Unauthenticated.code;

  constructor(readonly detail: string) {
    super(detail);
    this.name = 'Unauthenticated';
  }
}

/** An API token may not be issued as asked (a deactivated member, scopes beyond the role). */
export class TokenIssueRefused extends Error {
  static readonly code = 'ERR_TOKEN_ISSUE_REFUSED';
  readonly code = TokenIssueRefused.code;

  constructor(readonly detail: string) {
    super(detail);
    this.name = 'TokenIssueRefused';
  }
}

/** The credential is valid but does not permit what the request asks (beyond the route's own scope). */
export class AccessDenied extends Error {
  static readonly code = 'ERR_ACCESS_DENIED';
  readonly code = AccessDenied.code;

  constructor(readonly detail: string) {
    super(detail);
    this.name = 'AccessDenied';
  }
}

/** The refusal of what needs scopes the token does not carry (`action`: what it was asked to do). */
export const lacksScopes = (action: string, missing: readonly string[]): AccessDenied =>
  new AccessDenied(`${action} needs the scope${missing.length > 1 ? 's' : ''} ${wordList(missing, 'and')}, which the token does not carry.`);

export type AuthError = Unauthenticated | TokenIssueRefused | AccessDenied;

export const isAuthError = typedErrorGuard<AuthError>({
  ERR_UNAUTHENTICATED: 'Unauthenticated',
  ERR_TOKEN_ISSUE_REFUSED: 'TokenIssueRefused',
  ERR_ACCESS_DENIED: 'AccessDenied',
});
