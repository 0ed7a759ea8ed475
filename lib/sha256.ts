// SHA-256 and HMAC-SHA-256 from node:crypto in the shape @smithy/signature-v4 takes (its `sha256`
// option): the signed AWS calls of lib/auth/aws-json.ts and lib/store/sender.ts.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data): Buffer =>
  typeof data === 'string' ? Buffer.from(data, 'utf8') : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);

/** SHA-256 and HMAC-SHA-256 in the shape the signer takes, from node:crypto. */
export class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Data): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}
