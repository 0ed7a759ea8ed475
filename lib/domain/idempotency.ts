// Safe retries of a POST: a client's Idempotency-Key names one request. Its first use is recorded
// with a fingerprint of the request and the result (lib/store/idempotency.ts); for 24 hours a retry
// with the same key and request answers that result without a second write, the same key with
// another request is refused, and afterwards the key is free again. This module holds the rules;
// the store keeps the record in the same transaction as the request's effect.
import { createHash } from 'node:crypto';
import { InvalidInput } from './errors.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Set on an answer that replays a first result instead of doing the work again. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key names its first request: exactly, whatever the table's TTL clean-up does. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;
const where = { parameter: IDEMPOTENCY_HEADER };

/** The header's key, or undefined when absent; a malformed key is refused. */
export function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!KEY.test(value)) throw new InvalidInput(`The ${IDEMPOTENCY_HEADER} header must be 1 to 255 visible ASCII characters.`, where);
  return value;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Where a key's record lives: a hash of who sent it (`scope`: member and operation) and the key. */
export const recordName = (scope: string, key: string) => sha256(`${scope}\n${key}`);

/** What identifies the request's content: its operation, its path parameters and its JSON body. */
export const requestFingerprint = (operation: string, params: unknown, body: unknown) =>
  sha256(`${operation}\n${JSON.stringify(params)}\n${JSON.stringify(body)}`);

/** Whether a key first used at `firstAt` (epoch ms) still names that request at `now`. */
export const withinWindow = (firstAt: number, now: number) => now - firstAt < IDEMPOTENCY_WINDOW_MS;

/** What identifies where the request goes: its operation and its path parameters (the ids in its path). */
export const targetFingerprint = (operation: string, params: unknown) => sha256(`${operation}\n${JSON.stringify(params)}`);

/** A key already used for another request: on another path (other ids in it), or with another body. */
export const keyReused = (differs: 'path' | 'body') =>
  new InvalidInput(
    differs === 'path'
      ? `This ${IDEMPOTENCY_HEADER} was already used for a request to another path (other ids in it); use a new key for a new request.`
      : `This ${IDEMPOTENCY_HEADER} was already used for a request with another body; use a new key for a new request.`,
    where,
  );
