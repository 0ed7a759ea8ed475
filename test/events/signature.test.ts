// Standard Webhooks signatures (lib/events/signature.ts): the specification's own test vector, the
// reference library (standardwebhooks) accepting what we sign, and what a receiver must refuse.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, secretKey, sign, signedHeaders, verify } from '#lib/events/signature.ts';

describe('Standard Webhooks signing', () => {
  it("the reference libraries' vector: v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", () => {
    expect(sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('a new secret is whsec_ + base64 of 32 random bytes, different every time', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('secrets outside the specification are refused: no prefix, under 24 or over 64 bytes, not base64', () => {
    expect(() => secretKey('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toThrow('starts with whsec_');
    expect(() => secretKey(`whsec_${Buffer.alloc(23).toString('base64')}`)).toThrow('24–64 bytes');
    expect(() => secretKey(`whsec_${Buffer.alloc(65).toString('base64')}`)).toThrow('24–64 bytes');
    expect(() => secretKey('whsec_not base64!')).toThrow();
  });

  it('the reference library verifies our headers and body', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ data: { id: 'x', eventType: 'note.created' } });
    const headers = signedHeaders(secret, 'msg_0123456789abcdef0123456789abcdef', body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('verify: accepts the signature among several, refuses another secret, a changed body or id, and stale or future timestamps', () => {
    const secret = newSigningSecret();
    const now = 1_700_000_000_000;
    const body = '{"data":{}}';
    const headers = signedHeaders(secret, 'msg_1', body, now);
    expect(verify(secret, headers, body, now)).toEqual({ ok: true });
    expect(verify(secret, { ...headers, 'webhook-signature': `v1a,xyz v1,AAAA ${headers['webhook-signature']}` }, body, now)).toEqual({ ok: true });
    expect(verify(newSigningSecret(), headers, body, now)).toEqual({ ok: false, reason: 'no matching signature' });
    expect(verify(secret, headers, '{"data":{"x":1}}', now)).toEqual({ ok: false, reason: 'no matching signature' });
    expect(verify(secret, { ...headers, 'webhook-id': 'msg_2' }, body, now)).toEqual({ ok: false, reason: 'no matching signature' });
    expect(verify(secret, headers, body, now + 301_000)).toEqual({ ok: false, reason: 'timestamp too old' });
    expect(verify(secret, headers, body, now - 301_000)).toEqual({ ok: false, reason: 'timestamp too new' });
    expect(verify(secret, { ...headers, 'webhook-timestamp': '1e9' }, body, now)).toEqual({ ok: false, reason: 'bad timestamp' });
    expect(verify(secret, { 'webhook-id': 'msg_1' }, body, now)).toEqual({ ok: false, reason: 'missing headers' });
  });

  it("the README's verification snippet accepts our deliveries and refuses a changed body, another secret and an old timestamp", async () => {
    const readme = await readFile(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const snippet = /## Webhooks[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)![1]!;
    const dir = await mkdtemp(join(tmpdir(), 'readme-verify-'));
    try {
      await writeFile(join(dir, 'verify.mjs'), `${snippet}\nexport { verifyWebhook };\n`);
      const { verifyWebhook } = (await import(pathToFileURL(join(dir, 'verify.mjs')).href)) as {
        verifyWebhook: (secret: string, headers: Record<string, string>, body: string) => boolean;
      };
      const secret = newSigningSecret();
      const body = '{"data":{"id":"x","eventType":"note.created"}}';
      const headers = { ...signedHeaders(secret, 'msg_0123456789abcdef0123456789abcdef', body) };
      expect(verifyWebhook(secret, headers, body)).toBe(true);
      expect(verifyWebhook(secret, headers, `${body} `)).toBe(false);
      expect(verifyWebhook(newSigningSecret(), headers, body)).toBe(false);
      expect(verifyWebhook(secret, { ...signedHeaders(secret, 'msg_1', body, Date.now() - 600_000) }, body)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an id with a "." is never signed (it would make the signed content ambiguous)', () => {
    expect(() => sign(newSigningSecret(), 'msg.1', 1, '{}')).toThrow('no "."');
  });
});
