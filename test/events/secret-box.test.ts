// Webhook secrets at rest (lib/events/secret-box.ts): AES-256-GCM under an HKDF-derived key, bound
// to the subscription and field they belong to.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, seal, webhookSecretKey } from '#lib/events/secret-box.ts';

const serviceSecret = randomBytes(32);
const key = webhookSecretKey(serviceSecret);

describe('sealed webhook secrets', () => {
  it('round-trip; every sealing differs (random IV); the plaintext does not appear', () => {
    const a = seal(key, 'Bearer s3cret', 'sub-1/authorization');
    const b = seal(key, 'Bearer s3cret', 'sub-1/authorization');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('s3cret');
    expect(open(key, a, 'sub-1/authorization')).toBe('Bearer s3cret');
  });

  it('the key is derived with its own info string: not the service secret itself, stable for the same secret', () => {
    expect(key.equals(Buffer.from(serviceSecret))).toBe(false);
    expect(webhookSecretKey(serviceSecret).equals(key)).toBe(true);
    expect(key).toHaveLength(32);
  });

  it('refused: another subscription or field, another service secret, a flipped bit, garbage', () => {
    const sealed = seal(key, 'whsec_abc', 'sub-1/signingSecret');
    expect(() => open(key, sealed, 'sub-2/signingSecret')).toThrow();
    expect(() => open(key, sealed, 'sub-1/authorization')).toThrow();
    expect(() => open(webhookSecretKey(randomBytes(32)), sealed, 'sub-1/signingSecret')).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw.writeUInt8(raw.readUInt8(20) ^ 1, 20);
    expect(() => open(key, `v1.${raw.toString('base64url')}`, 'sub-1/signingSecret')).toThrow();
    expect(() => open(key, 'v1.AAAA', 'sub-1/signingSecret')).toThrow('Not a sealed secret');
    expect(() => open(key, 'plain text', 'sub-1/signingSecret')).toThrow('Not a sealed secret');
  });
});
