// The service-token verifier (lib/auth/service-jwt.ts, node:crypto): what it accepts and, one by
// one, what it refuses. The hostile tokens are signed with jose, independently of the code under test.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_LENGTH, signJwtWith, verifyJwtWith, type ServiceClaims } from '#lib/auth/service-jwt.ts';
import { generateServiceKeyMaterial, importServiceKeys } from '#lib/auth/service-key-file.ts';
import type { ServiceKeys } from '#lib/auth/service-key-model.ts';

const material = await generateServiceKeyMaterial();
const keys = await importServiceKeys(material);
const privateKey = createPrivateKey({ key: material.privateJwk, format: 'jwk' });
const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const now = () => Math.floor(Date.now() / 1000);
const claims = (): ServiceClaims => ({ tu: 'api', ws: 'ws-1', sub: 'member-1', scope: 'notes:read', jti: 'tok-1' });

/** A token signed with jose: `header` over the default ES256 header, `payload` over valid claims. */
async function joseToken(header: Record<string, unknown> = {}, payload: JWTPayload = {}, key = privateKey): Promise<string> {
  return new SignJWT({ ...claims(), iss: 'pm-api', iat: now(), exp: now() + 60, ...payload })
    .setProtectedHeader({ alg: 'ES256', kid: material.kid, typ: 'JWT', ...header })
    .sign(key);
}

describe('service tokens: the verifier', () => {
  it('accepts its own tokens and a jose-signed token with the same key and claims', async () => {
    expect(await verifyJwtWith(keys, await signJwtWith(keys, claims(), new Date(Date.now() + 60_000)))).toMatchObject({ tu: 'api', ws: 'ws-1', iss: 'pm-api' });
    expect(await verifyJwtWith(keys, await joseToken())).toMatchObject({ sub: 'member-1', scope: 'notes:read' });
  });

  it.each<[string, () => Promise<string>]>([
    ['another key', () => joseToken({}, {}, other)],
    ['an unknown kid', () => joseToken({ kid: 'someone-else' })],
    ['no kid', () => joseToken({ kid: undefined })],
    ['a crit header', () => joseToken({ crit: ['b64'], b64: true })],
    ['an expired token (exp = now)', () => joseToken({}, { exp: now() })],
    ['a token not valid yet (nbf)', () => joseToken({}, { nbf: now() + 120 })],
    ['another issuer', () => joseToken({}, { iss: 'someone' })],
    ['no jti', () => joseToken({}, { jti: undefined })],
    ['no iat', () => joseToken({}, { iat: undefined })],
    ['a string exp', () => joseToken({}, { exp: String(now() + 60) as unknown as number })],
    ['another token use', () => joseToken({}, { tu: 'refresh' })],
    ['no workspace', () => joseToken({}, { ws: undefined })],
  ])('refuses %s', async (_what, make) => {
    expect(await verifyJwtWith(keys, await make())).toBeUndefined();
  });

  it('refuses alg none, HS256 keyed with the public key, a tampered payload, extra segments and oversize input', async () => {
    const real = await joseToken();
    const [h, p, s] = real.split('.') as [string, string, string];
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const none = `${b64({ alg: 'none', kid: material.kid })}.${p}.`;
    const hs256 = await new SignJWT({ ...claims(), iss: 'pm-api', iat: now() })
      .setProtectedHeader({ alg: 'HS256', kid: material.kid })
      .sign(Buffer.from(JSON.stringify(material.publicJwk)));
    const tampered = `${h}.${b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), ws: 'ws-2' })}.${s}`;
    for (const token of [none, hs256, tampered, `${real}.x`, `${h}.${p}`, `${h}.${p}.${s}=`, 'not a token', 'a'.repeat(MAX_TOKEN_LENGTH + 1)]) {
      expect(await verifyJwtWith(keys, token), token.slice(0, 60)).toBeUndefined();
    }
  });

  it('a retired key still verifies when listed; a key set without it does not', async () => {
    const rotated: ServiceKeys = {
      ...keys,
      kid: 'new',
      verifyKeys: new Map([...keys.verifyKeys, ['new', generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey]]),
    };
    const token = await joseToken();
    expect(await verifyJwtWith(rotated, token)).toMatchObject({ jti: 'tok-1' });
    expect(await verifyJwtWith({ ...keys, verifyKeys: new Map() }, token)).toBeUndefined();
  });
});
