// What else begins when the service keys begin to load (./service-key.ts): a function that will read
// the service secret next (./service-secret.ts) loads it beside them, so its cold start waits for one
// round trip, not two. Its own module, so a function that reads only the secret (the webhook delivery)
// carries no key source.
const starts: Array<() => void> = [];

/** `start` runs each time the keys begin to load. */
export function onServiceKeysLoad(start: () => void): void {
  starts.push(start);
}

export function serviceKeysLoading(): void {
  for (const start of starts) start();
}
