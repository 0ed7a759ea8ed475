// The service's own key: an ES256 signing key for API and access tokens (the secret the cursors',
// CSRF tokens' and webhook secrets' keys are derived from is ./service-secret.ts). Two sources,
// chosen by the environment:
//  - locally, a JSON file outside git, generated on first start (SERVICE_KEY_FILE, ./service-key-file.ts);
//  - deployed, a KMS asymmetric key created by the stack (./service-key-kms.ts, docs/operations.md).
// Both sources are imported statically and only the configured one is called, so the local stack
// never makes an AWS client. Not a lazy import(): esbuild inlines one into the single bundle file as
// a wrapped module, which keeps the whole KMS client package (every command and its schemas, about
// 30 KiB more) and made module init slower than evaluating the tree-shaken client at once
// (docs/performance.md, "Cold start").
import { fileServiceKeys } from './service-key-file.ts';
import { kmsServiceKeysFromAws } from './service-key-kms.ts';
import { loadedPerSource, serviceKeysLoading } from './service-key-loads.ts';
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

const loaded = loadedPerSource<ServiceKeys>();

/** The service keys, loaded once per process (per source): the local file wins over KMS. */
export function serviceKeys(): Promise<ServiceKeys> {
  const file = config.serviceKeyFile;
  const kms = file ? undefined : kmsSourceFromEnv();
  if (!file && !kms) {
    return Promise.reject(new Error(`No service key configured: set SERVICE_KEY_FILE (local) or ${SERVICE_KEY_ENV.kmsKeyId} (deployed)`));
  }
  const source = file ? `file:${file}` : `kms:${JSON.stringify(kms)}`;
  return loaded(source, () => {
    const keys = file ? fileServiceKeys(file) : kmsServiceKeysFromAws(kms!);
    serviceKeysLoading();
    return keys;
  });
}
