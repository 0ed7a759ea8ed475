// Preloaded (`node --import`) into a process a benchmark spawns: on exit it writes the process's
// peak resident set size (getrusage's ru_maxrss, via process.resourceUsage(), in KiB) to stderr as
// one `maxRSS <KiB>` line, which the benchmark reads (bench/restore.ts).
import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(2, `\nmaxRSS ${process.resourceUsage().maxRSS}\n`));
