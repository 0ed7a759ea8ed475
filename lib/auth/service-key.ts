// The keys that verify the service's own tokens (API and access tokens, ES256), and sign them where
// the source can. Two sources, chosen by the environment:
//  - locally, a JSON file outside git, generated on first start (SERVICE_KEY_FILE, ./service-key-file.ts),
//    which also signs;
//  - deployed, the KMS keys' public halves the stack read at deploy time (SERVICE_PUBLIC_KEYS,
//    ./service-public-keys.ts): verifying needs no AWS call. Signing there is KMS Sign, only in the
//    functions that mint tokens (./service-jwt-signing.ts).
// The secret the cursors', CSRF tokens' and webhook secrets' keys are derived from is ./service-secret.ts.
import { fileServiceKeys } from './service-key-file.ts';
import { loadedPerSource, serviceKeysLoading } from './service-key-loads.ts';
import { SERVICE_KEY_ENV, type ServiceKeys } from './service-key-model.ts';
import { publicServiceKeys } from './service-public-keys.ts';
import { config } from '../config.ts';

const loaded = loadedPerSource<ServiceKeys>();

/** The service keys, loaded once per process (per source): the local file wins over the deployed public keys. */
export function serviceKeys(): Promise<ServiceKeys> {
  const file = config.serviceKeyFile;
  const publicKeys = file ? undefined : process.env[SERVICE_KEY_ENV.publicKeys] || undefined;
  if (!file && !publicKeys) {
    return Promise.reject(new Error(`No service key configured: set SERVICE_KEY_FILE (local) or ${SERVICE_KEY_ENV.publicKeys} (deployed)`));
  }
  return loaded(file ? `file:${file}` : `public:${publicKeys}`, async () => {
    serviceKeysLoading();
    return file ? fileServiceKeys(file) : publicServiceKeys(publicKeys!);
  });
}
