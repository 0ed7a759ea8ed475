// Module init as Lambda's Init Duration counts it: the time `import()` of a bundle takes in a fresh
// `node` process. Used by infra/bundle-sizes.ts and infra/source-map-init.ts.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export interface Import {
  /** Wall-clock ms. */
  wall: number;
  /** CPU ms (user + system, every thread of the process). */
  cpu: number;
}

/**
 * Time a fresh node process takes to import the bundle at `file`. The process gets `nodeOptions` as
 * its NODE_OPTIONS and no other (none unless given: the stack sets none, infra/service-function.ts).
 */
export function importMs(file: string, nodeOptions?: string): Import {
  const probe = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const wall = performance.now() - t; const { user, system } = process.cpuUsage(c); process.stdout.write(JSON.stringify({ wall, cpu: (user + system) / 1000 }));`;
  // Configuration a module may read on import; nothing is called.
  const { NODE_OPTIONS: _inherited, ...inherited } = process.env;
  const env = { ...inherited, TABLE_NAME: 'bundle-sizes', AWS_REGION: 'eu-west-1', LOG_LEVEL: 'silent', ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) };
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe], { env, encoding: 'utf8' })) as Import;
}

/** The median of `values` (the mean of the middle two for an even count): what both harnesses report. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
