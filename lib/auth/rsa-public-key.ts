// Uploaded public keys of server-to-server applications: one PEM block holding an RSA public key,
// parsed with node:crypto, normalised to SPKI PEM and fingerprinted. Decisions (docs/server-to-server.md):
// SPKI ("PUBLIC KEY") and PKCS#1 ("RSA PUBLIC KEY") are accepted — the same key material, so both
// normalise to one SPKI PEM; X.509 certificates are refused, because the service would ignore their
// validity period and chain and so suggest a trust it does not give.
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

const MIN_RSA_BITS = 2048;
/** Larger keys only cost verification time (a DoS lever); 8192 covers every real deployment. */
const MAX_RSA_BITS = 8192;
/** Keys one application may hold at once: enough for rotation, few enough to try each on a token request. */
export const MAX_KEYS_PER_APPLICATION = 5;
/** An 8192-bit SPKI PEM is about 1.5 KB; anything far larger is not one public key. */
const MAX_PEM_LENGTH = 16 * 1024;

interface RsaPublicKey {
  /** SPKI PEM, as re-exported by node:crypto. */
  pem: string;
  /** SHA-256 of the SPKI DER, base64url (no padding). */
  fingerprint: string;
  bits: number;
}

/** A refused upload; `message` tells the operator what was wrong. */
export class PublicKeyRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PublicKeyRejected';
  }
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]{1,40})-----([\s\S]*?)-----END ([A-Z0-9 ]{1,40})-----/g;
const BASE64_BODY = /^[A-Za-z0-9+/]+={0,2}$/;
const PRIVATE = /PRIVATE KEY$/;

function fingerprintOf(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

/** Parses and checks an uploaded PEM; throws PublicKeyRejected saying why it is refused. */
export function parseRsaPublicKey(input: unknown): RsaPublicKey {
  if (typeof input !== 'string' || input.trim() === '') throw new PublicKeyRejected('The public key must be a non-empty PEM string.');
  if (input.length > MAX_PEM_LENGTH)
    throw new PublicKeyRejected(`The public key is longer than ${MAX_PEM_LENGTH} characters; a PEM RSA public key is far shorter.`);
  const text = input.replace(/\r\n/g, '\n').trim();
  const blocks = [...text.matchAll(BLOCK)];
  if (blocks.length === 0) throw new PublicKeyRejected('The public key is not PEM: expected one "-----BEGIN PUBLIC KEY-----" block.');
  const labels = blocks.map((b) => b[1]!);
  // A private key is named first, whatever else is wrong: it must not be stored, and the sender should know it leaked.
  if (labels.some((l) => PRIVATE.test(l))) {
    throw new PublicKeyRejected(
      'This is a private key. Upload only the public key (openssl pkey -in private.pem -pubout); treat the private key you sent as exposed and make a new one.',
    );
  }
  if (blocks.length > 1) throw new PublicKeyRejected(`The PEM holds ${blocks.length} blocks; upload exactly one public key.`);
  const [whole, label, body, endLabel] = blocks[0]! as unknown as [string, string, string, string];
  if (whole.length !== text.length) throw new PublicKeyRejected('The PEM has text outside its BEGIN/END lines; upload the key block alone.');
  if (label !== endLabel) throw new PublicKeyRejected(`The PEM's BEGIN (${label}) and END (${endLabel}) lines do not match.`);
  if (label === 'CERTIFICATE') {
    throw new PublicKeyRejected('X.509 certificates are not accepted; upload the public key itself (openssl x509 -in cert.pem -pubkey -noout).');
  }
  if (label !== 'PUBLIC KEY' && label !== 'RSA PUBLIC KEY') {
    throw new PublicKeyRejected(`A PEM "${label}" block is not accepted; upload an RSA public key ("PUBLIC KEY" or "RSA PUBLIC KEY").`);
  }
  const base64 = body.replace(/\s+/g, '');
  if (!BASE64_BODY.test(base64)) throw new PublicKeyRejected('The PEM body is not valid base64.');

  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: label === 'PUBLIC KEY' ? 'spki' : 'pkcs1' });
  } catch {
    throw new PublicKeyRejected(`The PEM "${label}" block does not hold a readable public key.`);
  }
  const type = key.asymmetricKeyType;
  if (type !== 'rsa') {
    const what = type === 'ec' ? 'an EC key' : type === 'rsa-pss' ? 'an RSA-PSS key' : type ? `an ${type} key` : 'not an RSA key';
    throw new PublicKeyRejected(`The public key is ${what}; only RSA keys (RS256) are accepted.`);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw new PublicKeyRejected(`The RSA key has ${bits} bits; at least ${MIN_RSA_BITS} are required.`);
  if (bits > MAX_RSA_BITS) throw new PublicKeyRejected(`The RSA key has ${bits} bits; at most ${MAX_RSA_BITS} are accepted.`);
  const e = key.asymmetricKeyDetails?.publicExponent ?? 0n;
  if (e < 3n || e % 2n === 0n) throw new PublicKeyRejected('The RSA key has an unusable public exponent.');
  return { pem: key.export({ type: 'spki', format: 'pem' }).toString(), fingerprint: fingerprintOf(key), bits };
}
