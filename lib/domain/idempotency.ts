// Safe retries of a create: the client's Idempotency-Key decides the id of what the request
// creates, so a retry of the same request (after a 408, a 429 or a lost connection) finds the
// resource its first attempt created instead of creating a second one. The resource's own put
// (attribute_not_exists) is the record: nothing separate can be lost between the two. A fingerprint
// of the request's body, kept on the resource, tells a retry from another request under the same key.
import { createHash } from 'node:crypto';
import { InvalidInput } from './errors.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY = /^[\x21-\x7e]{1,255}$/;
const where = { parameter: IDEMPOTENCY_HEADER };

/** The header's key, or undefined when absent; a malformed key is refused. */
export function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!KEY.test(value)) throw new InvalidInput(`The ${IDEMPOTENCY_HEADER} header must be 1 to 255 visible ASCII characters.`, where);
  return value;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The id a create under `key` gets, unique per caller (`scope`): a UUID (version 8, RFC 9562) from a hash. */
export function idempotentId(scope: string, key: string): string {
  const b = sha256(`${scope}\n${key}`).subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** What identifies the request's content: its operation and its JSON body. */
export const requestFingerprint = (operation: string, body: unknown) => sha256(`${operation}\n${JSON.stringify(body)}`).toString('base64url');

/** A key already used for a request with another body. */
export const keyReused = () =>
  new InvalidInput(`This ${IDEMPOTENCY_HEADER} was already used for a request with another body; use a new key for a new request.`, where);

/** What a create needs to be idempotent: the id to create and the fingerprint to keep (or compare). */
export interface Idempotent {
  id: string;
  fingerprint: string;
}
