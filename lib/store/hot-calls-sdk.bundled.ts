// What deployed bundles load instead of ./hot-calls-sdk.ts (infra/bundling.ts): nothing watches the
// document client there, so the hot path's two calls always take the lean sender (./hot-calls.ts).
import type { sdkHotCalls as viaSdk } from './hot-calls-sdk.ts';

export const sdkHotCalls: typeof viaSdk = undefined;
