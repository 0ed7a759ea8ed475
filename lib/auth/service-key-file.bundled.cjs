// What deployed bundles load instead of lib/auth/service-key-file.ts (infra/bundling.ts): deployed
// functions take their keys from KMS and never set SERVICE_KEY_FILE. Reaching this is a
// misconfigured function, so it says so rather than pretend.
/* global module */
module.exports = {
  fileServiceKeys() {
    return Promise.reject(
      new Error('Deployed bundles read no service key file (lib/auth/service-key-file.bundled.cjs): unset SERVICE_KEY_FILE and configure SERVICE_KMS_KEY_ID'),
    );
  },
};
