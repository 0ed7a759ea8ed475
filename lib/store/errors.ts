// The store's own typed errors, for outcomes the domain's (lib/domain/errors.ts) do not describe.
// Same shape: a stable `code` per class, no HTTP; lib/http/error-map.ts maps them.
import { typedErrorGuard } from '../domain/errors.ts';

/**
 * A transaction kept failing its conditions or conflicting with others until the request's time
 * budget ran out; nothing was written. `resource` names what was contended, in the API's words.
 */
export class Contention extends Error {
  static readonly code = 'ERR_CONTENTION';
  readonly code = Contention.code;

  constructor(
    readonly label: string,
    readonly resource: string,
    readonly attempts: number,
    /** Seconds after which a retry has a fair chance. */
    readonly retryAfterS: number,
    cause: unknown,
  ) {
    super(`${label}: ${resource} stayed contended through ${attempts} attempts`, { cause });
    this.name = 'Contention';
  }
}

/**
 * Two reads of one entity within one transaction's build disagree on where it stands (a cached
 * chain from lib/store/chains.ts against a fresh read, or reads on either side of a move): the
 * transaction could condition on only one of them, so lib/store/tx.ts rebuilds it from fresh reads.
 */
export class StaleChain extends Error {
  static readonly code = 'ERR_STALE_CHAIN';
  readonly code = StaleChain.code;

  constructor(readonly entityId: string) {
    super(`Entity ${entityId} was read in two places within one transaction`);
    this.name = 'StaleChain';
  }
}

/**
 * A write of many steps ran out of its request's time after its first step: what is left is recorded
 * as pending work (lib/store/work.ts), which the sweeper finishes. `detail` says, in the API's words,
 * where the write stands.
 */
export class Unfinished extends Error {
  static readonly code = 'ERR_UNFINISHED';
  readonly code = Unfinished.code;

  constructor(readonly detail: string) {
    super(detail);
    this.name = 'Unfinished';
  }
}

/** A write into a workspace that does not exist (admin commands name workspaces directly). */
export class WorkspaceNotFound extends Error {
  static readonly code = 'ERR_WORKSPACE_NOT_FOUND';
  readonly code = WorkspaceNotFound.code;

  constructor(readonly workspaceId: string) {
    super(`No workspace ${workspaceId}`);
    this.name = 'WorkspaceNotFound';
  }
}

/** A member with this e-mail address already exists in the workspace. */
export class EmailTaken extends Error {
  static readonly code = 'ERR_EMAIL_TAKEN';
  readonly code = EmailTaken.code;

  constructor(readonly email: string) {
    super(`${email} is already a member of this workspace`);
    this.name = 'EmailTaken';
  }
}

/** A custom field with this name (case-insensitive) already exists on the type. */
export class NameTaken extends Error {
  static readonly code = 'ERR_NAME_TAKEN';
  readonly code = NameTaken.code;

  constructor(
    readonly fieldName: string,
    readonly entityType: string,
  ) {
    super(`A custom field named '${fieldName}' already exists on ${entityType}.`);
    this.name = 'NameTaken';
  }
}

/** The application already holds this very public key. */
export class DuplicateKey extends Error {
  static readonly code = 'ERR_DUPLICATE_KEY';
  readonly code = DuplicateKey.code;

  constructor(readonly keyId: string) {
    super(`This key is already registered on the application as key ${keyId}.`);
    this.name = 'DuplicateKey';
  }
}

/** The application already holds as many keys as it may. */
export class KeyLimitReached extends Error {
  static readonly code = 'ERR_KEY_LIMIT_REACHED';
  readonly code = KeyLimitReached.code;

  constructor(readonly max: number) {
    super(`The application already holds ${max} keys, the most it may; remove one first.`);
    this.name = 'KeyLimitReached';
  }
}

// --- Authorization code flow (lib/store/authorization-grants.ts) ---

/** An authorization code or refresh token was consumed by another request first (or the code expired meanwhile). */
export class AlreadyUsed extends Error {
  static readonly code = 'ERR_ALREADY_USED';
  readonly code = AlreadyUsed.code;

  constructor(readonly what: 'authorization code' | 'refresh token') {
    super(`The ${what} was used by another request first.`);
    this.name = 'AlreadyUsed';
  }
}

/** The grant was revoked while a request refreshed it. */
export class GrantRevoked extends Error {
  static readonly code = 'ERR_GRANT_REVOKED';
  readonly code = GrantRevoked.code;

  constructor(readonly grantId: string) {
    super(`Grant ${grantId} was revoked.`);
    this.name = 'GrantRevoked';
  }
}

/** The workspace already holds as many webhook subscriptions as it may. */
export class WebhookLimitReached extends Error {
  static readonly code = 'ERR_WEBHOOK_LIMIT_REACHED';
  readonly code = WebhookLimitReached.code;

  constructor(readonly max: number) {
    super(`A workspace holds at most ${max} webhook subscriptions; delete one first.`);
    this.name = 'WebhookLimitReached';
  }
}

/**
 * A write would take a stored record past DynamoDB's item size limit (400 KB). The API holds fields
 * and metadata well below it (lib/domain/record-size.ts); a record written before that limit may be
 * close enough that the attributes a link, a child or an archive add tip it over. Nothing was written.
 */
export class RecordFull extends Error {
  static readonly code = 'ERR_RECORD_FULL';
  readonly code = RecordFull.code;

  constructor(
    /** The record, in the API's words (lib/store/keys.ts describeKey). */
    readonly record: string,
    cause: unknown,
  ) {
    super(`This change would take ${record} past the 400 KB one stored record may hold; nothing was changed. Shorten or clear one of its fields first.`, {
      cause,
    });
    this.name = 'RecordFull';
  }
}

export type StoreError =
  | RecordFull
  | Contention
  | Unfinished
  | WorkspaceNotFound
  | EmailTaken
  | NameTaken
  | DuplicateKey
  | KeyLimitReached
  | AlreadyUsed
  | GrantRevoked
  | WebhookLimitReached;

export const isStoreError = typedErrorGuard<StoreError>({
  ERR_RECORD_FULL: 'RecordFull',
  ERR_CONTENTION: 'Contention',
  ERR_UNFINISHED: 'Unfinished',
  ERR_WORKSPACE_NOT_FOUND: 'WorkspaceNotFound',
  ERR_EMAIL_TAKEN: 'EmailTaken',
  ERR_NAME_TAKEN: 'NameTaken',
  ERR_DUPLICATE_KEY: 'DuplicateKey',
  ERR_KEY_LIMIT_REACHED: 'KeyLimitReached',
  ERR_ALREADY_USED: 'AlreadyUsed',
  ERR_GRANT_REVOKED: 'GrantRevoked',
  ERR_WEBHOOK_LIMIT_REACHED: 'WebhookLimitReached',
});

// --- DynamoDB's failures, matched by name (the SDK's exception classes are not needed to tell them) ---

const dynamoName = (err: unknown): unknown => (err as { name?: unknown } | null)?.name;

/** A single-item write whose ConditionExpression did not hold. */
export const isConditionFailed = (err: unknown): boolean => dynamoName(err) === 'ConditionalCheckFailedException';

/** A cancelled TransactWriteItems, with one reason per item, in order. */
export const isCancellation = (err: unknown): err is { CancellationReasons?: Array<{ Code?: string }> } => dynamoName(err) === 'TransactionCanceledException';

/**
 * Which write DynamoDB refused for its item's size: the index of a cancelled transaction's item, -1
 * when it refused the call as a whole (a single-item write, or a transaction's Put); undefined for
 * any other failure.
 */
export function itemTooLargeAt(err: unknown): number | undefined {
  const tooLarge = (message: unknown) => typeof message === 'string' && /item size/i.test(message);
  if (dynamoName(err) === 'ValidationException') return tooLarge((err as Error).message) ? -1 : undefined;
  if (!isCancellation(err)) return undefined;
  const index = (err.CancellationReasons ?? []).findIndex((r) => r.Code === 'ValidationError' && tooLarge((r as { Message?: unknown }).Message));
  return index < 0 ? undefined : index;
}
