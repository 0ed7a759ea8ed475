// The service secret: what the pagination cursors' key (lib/http/pagination.ts), the CSRF tokens'
// key (lib/http/csrf.ts) and the webhook secrets' sealing key (lib/events/secret-box.ts) are
// derived from. Kept apart from the signing keys (./service-key.ts): only the functions whose rows
// say `secret` (lib/routes.ts, lib/workers.ts) may read it, and only their bundles carry the Secrets
// Manager client (test/infra/bundle.test.ts holds the rows to the bundles). Two sources, as for the
// keys: the local key file (SERVICE_KEY_FILE), or the stack's Secrets Manager secret
// (SERVICE_SECRET_ID, ./service-secret-aws.ts), imported statically for the reason ./service-key.ts gives.
import { hkdfSync } from 'node:crypto';
import { fileServiceSecret } from './service-key-file.ts';
import { loadedPerSource, onServiceKeysLoad } from './service-key-loads.ts';
import { SERVICE_KEY_ENV } from './service-key-model.ts';
import { secretFromAws } from './service-secret-aws.ts';
import { config } from '../config.ts';

const loaded = loadedPerSource<Uint8Array>();

/** The service secret, loaded once per process (per source): the local file wins over Secrets Manager. */
export function serviceSecret(): Promise<Uint8Array> {
  const file = config.serviceKeyFile;
  const secretId = file ? undefined : process.env[SERVICE_KEY_ENV.secretId] || undefined;
  if (!file && !secretId) {
    return Promise.reject(new Error(`No service secret configured: set SERVICE_KEY_FILE (local) or ${SERVICE_KEY_ENV.secretId} (deployed)`));
  }
  const source = file ? `file:${file}` : `secret:${secretId}`;
  return loaded(source, () => (file ? fileServiceSecret(file) : secretFromAws(secretId!)));
}

const derived = new WeakMap<Uint8Array, Map<string, Buffer>>();

/**
 * A 32-byte key derived from the service secret by HKDF-SHA256 under `info`: each use of the secret
 * has its own `info`, so no two share a key and the secret itself keys nothing. Kept per secret.
 */
export async function serviceSecretKey(info: string): Promise<Buffer> {
  const secret = await serviceSecret();
  let keys = derived.get(secret);
  if (!keys) derived.set(secret, (keys = new Map<string, Buffer>()));
  let key = keys.get(info);
  if (!key) keys.set(info, (key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), info, 32))));
  return key;
}

// A function that reads the secret loads it beside the keys its first token check loads: a cold
// start waits for one round trip, not two. A failure here is the first reader's to report.
onServiceKeysLoad(() => void serviceSecret().catch(() => {}));
