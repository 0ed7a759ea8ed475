// What signing with the deployed KMS key (./service-key-kms.ts) needs beyond the Sign call: KMS
// signs at most 4096 bytes of RAW message and answers an ECDSA signature in DER, which JOSE writes
// as r || s. Apart from the client, so it is tested without one.

/** KMS accepts at most 4096 bytes of RAW message; a service JWT is far smaller. */
export const KMS_MAX_RAW_MESSAGE = 4096;
const P256_COORDINATE_BYTES = 32;

/** An ECDSA signature from DER (SEQUENCE of two INTEGERs, as KMS returns it) to JOSE r || s. */
export function derToJoseSignature(der: Uint8Array, size = P256_COORDINATE_BYTES): Uint8Array {
  let at = 0;
  const fail = (): never => {
    throw new Error('Malformed DER ECDSA signature');
  };
  const byte = () => (at < der.length ? der[at++]! : fail());
  const length = () => {
    const first = byte();
    if (first < 0x80) return first;
    let len = 0;
    for (let n = first & 0x7f; n > 0; n--) len = (len << 8) | byte();
    return len;
  };
  const integer = () => {
    if (byte() !== 0x02) fail();
    const len = length();
    if (len === 0 || at + len > der.length) fail();
    let value = der.subarray(at, at + len);
    at += len;
    while (value.length > size && value[0] === 0) value = value.subarray(1); // sign-padding zero
    if (value.length > size) fail();
    const out = new Uint8Array(size);
    out.set(value, size - value.length);
    return out;
  };
  if (byte() !== 0x30) fail();
  if (length() !== der.length - at) fail();
  const r = integer();
  const s = integer();
  if (at !== der.length) fail();
  const sig = new Uint8Array(2 * size);
  sig.set(r, 0);
  sig.set(s, size);
  return sig;
}
