// How the service keys (./service-key.ts) and the service secret (./service-secret.ts) are loaded:
// once per process and source, again after a failed load; and, when the keys begin to load (a
// request's bearer check), whatever a function will read next (the secret) begins beside them, so on
// a cold start its round trip overlaps the bearer check's read instead of following the handler's.
// Its own module, so a function that reads only the secret (the webhook delivery) carries no key source.

/** A value loaded once per source, and loaded again when the source changes or its last load failed. */
export function loadedPerSource<T>(): (source: string, load: () => Promise<T>) => Promise<T> {
  let loaded: { source: string; value: Promise<T> } | undefined;
  return (source, load) => {
    if (loaded?.source !== source) {
      const value = load();
      loaded = { source, value };
      value.catch(() => {
        if (loaded?.value === value) loaded = undefined; // let a later call retry
      });
    }
    return loaded.value;
  };
}

const starts: Array<() => void> = [];

/** `start` runs each time the keys begin to load. */
export function onServiceKeysLoad(start: () => void): void {
  starts.push(start);
}

export function serviceKeysLoading(): void {
  for (const start of starts) start();
}
