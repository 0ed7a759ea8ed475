// Secrets the service must send again later (a subscription's signing secret and its configured
// Authorization header) are stored encrypted: AES-256-GCM under a key derived from the service
// secret (lib/auth/service-secret.ts) by HKDF-SHA256 with its own `info`, so no other use of that
// secret (cursors, CSRF tokens) shares the key. The associated data binds a ciphertext to its subscription
// and field: one copied onto another item or field does not decrypt.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'pm-api webhook secrets v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Format marker of a sealed value: `v1.` + base64url(iv || ciphertext || tag). */
const VERSION = 'v1';

export function webhookSecretKey(serviceSecret: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceSecret, new Uint8Array(0), INFO, 32));
}

const aad = (context: string) => Buffer.from(`${INFO}\n${context}`, 'utf8');

export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

/** Throws when the value was altered, sealed under another key, or for another context. */
export function open(key: Buffer, sealed: string, context: string): string {
  const [version, encoded] = sealed.split('.', 2);
  const raw = Buffer.from(encoded ?? '', 'base64url');
  if (version !== VERSION || raw.length < IV_BYTES + TAG_BYTES) throw new Error('Not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(aad(context));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}
