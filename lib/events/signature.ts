// Standard Webhooks signatures (the Standard Webhooks specification, symmetric scheme): the signed
// content is `${webhook-id}.${webhook-timestamp}.${body}`, signed with HMAC-SHA256 under the
// subscription's secret; the secret is shown to the subscriber as `whsec_` + base64 of 24–64 random
// bytes, and the `webhook-signature` header is a space-separated list of `v1,<base64 signature>`.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
/** Our secrets' size: 32 bytes, within the specification's 24–64. */
const SECRET_BYTES = 32;
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;
/** How far a receiver may accept a timestamp from its own clock (the specification's libraries use 5 minutes). */
const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A fresh signing secret in its serialised form. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The HMAC key a serialised secret stands for; throws on anything that is not a `whsec_` secret of 24–64 bytes. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error(`A signing secret starts with ${SECRET_PREFIX}`);
  const encoded = secret.slice(SECRET_PREFIX.length);
  const key = Buffer.from(encoded, 'base64');
  if (key.toString('base64') !== encoded || key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
    throw new Error(`A signing secret is ${SECRET_PREFIX} and the base64 of ${MIN_SECRET_BYTES}–${MAX_SECRET_BYTES} bytes`);
  }
  return key;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  if (id.includes('.') || !Number.isInteger(timestamp)) throw new Error('A message id has no "." and a timestamp is whole seconds');
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers for one delivery attempt (`now` in milliseconds). */
export function signedHeaders(secret: string, id: string, body: string, now = Date.now()): SignedHeaders {
  const timestamp = Math.floor(now / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': sign(secret, id, timestamp, body) };
}

type VerifyResult =
  { ok: true } | { ok: false; reason: 'missing headers' | 'bad timestamp' | 'timestamp too old' | 'timestamp too new' | 'no matching signature' };

/**
 * What a receiver does: the timestamp within tolerance of its clock (replays are refused), and one
 * of the listed `v1` signatures equal, compared in constant time.
 */
export function verify(secret: string, headers: Partial<Record<keyof SignedHeaders, string | undefined>>, body: string, now = Date.now()): VerifyResult {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const list = headers['webhook-signature'];
  if (!id || !ts || !list) return { ok: false, reason: 'missing headers' };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: 'bad timestamp' };
  const timestamp = Number(ts);
  const nowSeconds = Math.floor(now / 1000);
  if (nowSeconds - timestamp > TIMESTAMP_TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp too old' };
  if (timestamp - nowSeconds > TIMESTAMP_TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp too new' };
  const expected = Buffer.from(sign(secret, id, timestamp, body).slice(3), 'base64');
  for (const entry of list.split(' ')) {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) continue;
    const given = Buffer.from(signature, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no matching signature' };
}
