// RFC 9562 name-based UUIDs (version 5, SHA-1): the same namespace and name always give the same id,
// which is what makes a bulk load re-runnable (lib/store/move/ids.ts). node:crypto has randomUUID only.
import { createHash } from 'node:crypto';

const HEX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidV5(namespace: string, name: string): string {
  if (!HEX.test(namespace)) throw new TypeError(`Not a UUID: ${namespace}`);
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const h = bytes.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
