// Uploaded public keys: what is accepted, how it is normalised and fingerprinted, and each refusal's detail.
import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRsaPublicKey, PublicKeyRejected } from '#lib/auth/rsa-public-key.ts';

const dir = mkdtempSync(join(tmpdir(), 'pm-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

function refusal(input: unknown): string {
  try {
    parseRsaPublicKey(input);
  } catch (err) {
    expect(err).toBeInstanceOf(PublicKeyRejected);
    return (err as Error).message;
  }
  throw new Error('the key was accepted');
}

const rsa = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits });
const spki = (k: { export: (o: any) => string | Buffer }) => k.export({ type: 'spki', format: 'pem' }).toString();

/** A public key with the given modulus size, no private half (nobody generates 8200-bit keys in a test). */
function syntheticRsa(bits: number, e = 'AQAB'): string {
  const n = randomBytes(Math.ceil(bits / 8));
  n[0]! |= 0x80;
  n[n.length - 1]! |= 1;
  return spki(createPublicKey({ key: { kty: 'RSA', n: n.toString('base64url'), e }, format: 'jwk' }));
}

describe('accepted keys', () => {
  it('an openssl-made SPKI "PUBLIC KEY": bits, the SPKI PEM, and the fingerprint openssl computes (SHA-256 of the DER, base64url)', () => {
    openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'k.pem');
    openssl('pkey', '-in', 'k.pem', '-pubout', '-out', 'pub.pem');
    const der = openssl('pkey', '-pubin', '-in', 'pub.pem', '-outform', 'DER');
    writeFileSync(join(dir, 'pub.der'), der);
    const expected = openssl('dgst', '-sha256', '-binary', 'pub.der').toString('base64url');
    const pem = readFileSync(join(dir, 'pub.pem'), 'utf8');
    expect(parseRsaPublicKey(pem)).toEqual({ pem, fingerprint: expected, bits: 2048 });
  });

  it('a PKCS#1 "RSA PUBLIC KEY" is accepted and normalised to the same SPKI PEM and fingerprint', () => {
    const { publicKey } = rsa(2048);
    const pkcs1 = publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(pkcs1).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    expect(parseRsaPublicKey(pkcs1)).toEqual(parseRsaPublicKey(spki(publicKey)));
    expect(parseRsaPublicKey(pkcs1).pem).toBe(spki(publicKey));
  });

  it('CRLF line endings, surrounding whitespace and a 4096-bit key are fine', () => {
    const { publicKey } = rsa(4096);
    const pem = spki(publicKey);
    expect(parseRsaPublicKey(`\n  ${pem.replace(/\n/g, '\r\n')}  \n`)).toEqual({ pem, fingerprint: expect.any(String), bits: 4096 });
  });

  it('8192 bits is the largest accepted size', () => {
    expect(parseRsaPublicKey(syntheticRsa(8192)).bits).toBe(8192);
  });
});

describe('refused keys, each with a detail saying which', () => {
  it('a private key (PKCS#8, PKCS#1, encrypted, EC) → "This is a private key"', () => {
    const { privateKey } = rsa(2048);
    const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const encrypted = privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'x' }).toString();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    const message =
      'This is a private key. Upload only the public key (openssl pkey -in private.pem -pubout); treat the private key you sent as exposed and make a new one.';
    for (const pem of [pkcs8, pkcs1, encrypted, ec]) expect(refusal(pem)).toBe(message);
    // Even when a public key comes with it.
    expect(refusal(spki(rsa(2048).publicKey) + pkcs8)).toBe(message);
  });

  it('an EC key → "an EC key; only RSA"', () => {
    expect(refusal(spki(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey))).toBe(
      'The public key is an EC key; only RSA keys (RS256) are accepted.',
    );
  });

  it('an Ed25519 key and an RSA-PSS key → refused by type', () => {
    expect(refusal(spki(generateKeyPairSync('ed25519').publicKey))).toBe('The public key is an ed25519 key; only RSA keys (RS256) are accepted.');
    expect(refusal(spki(generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).publicKey))).toBe(
      'The public key is an RSA-PSS key; only RSA keys (RS256) are accepted.',
    );
  });

  it('under 2048 bits → "has 1024 bits; at least 2048"', () => {
    expect(refusal(spki(rsa(1024).publicKey))).toBe('The RSA key has 1024 bits; at least 2048 are required.');
    expect(refusal(syntheticRsa(2040))).toBe('The RSA key has 2040 bits; at least 2048 are required.');
  });

  it('absurdly large (over 8192 bits) → "at most 8192"', () => {
    expect(refusal(syntheticRsa(8200))).toBe('The RSA key has 8200 bits; at most 8192 are accepted.');
  });

  it('an unusable public exponent (1) → refused', () => {
    expect(refusal(syntheticRsa(2048, 'AQ'))).toBe('The RSA key has an unusable public exponent.');
  });

  it('an X.509 certificate → refused, saying how to extract its key', () => {
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'cert-key.pem', '-out', 'cert.pem', '-subj', '/CN=test', '-days', '1');
    expect(refusal(readFileSync(join(dir, 'cert.pem'), 'utf8'))).toBe(
      'X.509 certificates are not accepted; upload the public key itself (openssl x509 -in cert.pem -pubkey -noout).',
    );
  });

  it('garbage, an OpenSSH key, non-strings → "not PEM" / "non-empty PEM string"', () => {
    const notPem = 'The public key is not PEM: expected one "-----BEGIN PUBLIC KEY-----" block.';
    expect(refusal('hello')).toBe(notPem);
    expect(refusal('ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host')).toBe(notPem);
    expect(refusal('')).toBe('The public key must be a non-empty PEM string.');
    expect(refusal(42)).toBe('The public key must be a non-empty PEM string.');
  });

  it('a PEM whose body is not base64, or is base64 of nothing readable', () => {
    expect(refusal('-----BEGIN PUBLIC KEY-----\nnot*base64!\n-----END PUBLIC KEY-----')).toBe('The PEM body is not valid base64.');
    expect(refusal(`-----BEGIN PUBLIC KEY-----\n${randomBytes(300).toString('base64')}\n-----END PUBLIC KEY-----`)).toBe(
      'The PEM "PUBLIC KEY" block does not hold a readable public key.',
    );
  });

  it('several PEM blocks, text outside the block, mismatched BEGIN/END, other labels', () => {
    const a = spki(rsa(2048).publicKey);
    expect(refusal(a + a)).toBe('The PEM holds 2 blocks; upload exactly one public key.');
    expect(refusal(`my key:\n${a}`)).toBe('The PEM has text outside its BEGIN/END lines; upload the key block alone.');
    expect(refusal(a.replace('END PUBLIC KEY', 'END RSA PUBLIC KEY'))).toBe("The PEM's BEGIN (PUBLIC KEY) and END (RSA PUBLIC KEY) lines do not match.");
    expect(refusal(a.replace(/PUBLIC KEY/g, 'SSH2 PUBLIC KEY'))).toBe(
      'A PEM "SSH2 PUBLIC KEY" block is not accepted; upload an RSA public key ("PUBLIC KEY" or "RSA PUBLIC KEY").',
    );
  });

  it('an over-long input → refused before parsing', () => {
    expect(refusal('A'.repeat(20_000))).toBe('The public key is longer than 16384 characters; a PEM RSA public key is far shorter.');
  });
});
