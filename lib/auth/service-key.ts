// The service's own key: an ES256 signing key for API and access tokens (the secret the cursors',
// CSRF tokens' and webhook secrets' keys are derived from is ./service-secret.ts). Two sources,
// chosen by the environment:
//  - locally, a JSON file outside git, generated on first start (SERVICE_KEY_FILE, ./service-key-file.ts);
//  - deployed, a KMS asymmetric key created by the stack (./service-key-kms.ts, docs/operations.md).
// Each source is imported when the configuration names it, so a process runs only its own: deployed
// bundles carry the file source's code too (esbuild inlines both imports) but never evaluate it, and
// the local stack never loads the AWS clients.
import { serviceKeysLoading } from './service-key-loads.ts';
import { SERVICE_KEY_ENV, type KmsKeySource, type ServiceKeys } from './service-key-model.ts';
import { config } from '../config.ts';

const env = (name: string): string | undefined => process.env[name] || undefined;

function kmsSourceFromEnv(): KmsKeySource | undefined {
  const keyId = env(SERVICE_KEY_ENV.kmsKeyId);
  if (!keyId) return undefined;
  return {
    keyId,
    previousKeyIds: (env(SERVICE_KEY_ENV.previousKmsKeyIds) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    canSign: env(SERVICE_KEY_ENV.kmsSign) === '1',
  };
}

let loaded: { source: string; keys: Promise<ServiceKeys> } | undefined;

/** The service keys, loaded once per process (per source): the local file wins over KMS. */
export function serviceKeys(): Promise<ServiceKeys> {
  const file = config.serviceKeyFile;
  const kms = file ? undefined : kmsSourceFromEnv();
  if (!file && !kms) {
    return Promise.reject(new Error(`No service key configured: set SERVICE_KEY_FILE (local) or ${SERVICE_KEY_ENV.kmsKeyId} (deployed)`));
  }
  const source = file ? `file:${file}` : `kms:${JSON.stringify(kms)}`;
  if (loaded?.source !== source) {
    const keys = file
      ? import('./service-key-file.ts').then((m) => m.fileServiceKeys(file))
      : import('./service-key-kms.ts').then((m) => m.kmsServiceKeysFromAws(kms!));
    loaded = { source, keys };
    serviceKeysLoading();
    keys.catch(() => {
      if (loaded?.keys === keys) loaded = undefined; // let a later call retry
    });
  }
  return loaded.keys;
}
