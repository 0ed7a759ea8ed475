// What deployed bundles load instead of ./calls-sdk.ts (infra/bundling.ts): nothing watches a
// document client there, so every call takes the lean sender (./calls.ts) and no SDK client is carried.
import type { sdkCalls as viaSdk } from './calls-sdk.ts';

export const sdkCalls: typeof viaSdk = undefined;
