// Progress of `score verify` on stderr, so stdout keeps the command's one JSON result. On a terminal
// (stderr.isTTY) one line redrawn in place: a bar over the passes, with the current pass's counts.
// Otherwise (a pipe, a log file, CI) a plain line every `everyItems` items or `everyMs` milliseconds,
// whichever comes first, and one when a pass ends, so a log stays short and still shows life.
import { VERIFY_PHASES, type ProgressListener, type VerifyProgress } from '#lib/store/verify.ts';

export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

const BAR = 20;
const count = (n: number) => n.toLocaleString('en').replace(/,/g, ' ');

function describe(p: VerifyProgress): string {
  return `${p.phase}: ${count(p.items)} items read, ${count(p.checked)} checked, ${count(p.mismatches)} mismatches`;
}

/** A listener for verifyScores' progress, and `done` to end the display before the result is printed. */
export function verifyProgress(
  out: ProgressOutput = process.stderr,
  { everyItems = 10_000, everyMs = 5_000, now = () => Date.now() } = {},
): { listener: ProgressListener; done: () => void } {
  const started = now();
  if (out.isTTY) {
    let drawn = false;
    return {
      listener: (p) => {
        const step = VERIFY_PHASES.indexOf(p.phase);
        const filled = Math.round((step / VERIFY_PHASES.length) * BAR);
        out.write(`\r\x1b[2Kscore verify [${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}] ${step + 1}/${VERIFY_PHASES.length} ${describe(p)}`);
        drawn = true;
      },
      done: () => {
        if (drawn) out.write('\n');
      },
    };
  }
  // A pass's line when it ends, with what it read (its first line would say 0 of everything).
  let current: VerifyProgress | undefined;
  let last = { items: 0, at: started };
  const line = (p: VerifyProgress, t: number, what: string) => out.write(`score verify ${p.workspace} ${what} (${((t - started) / 1000).toFixed(0)} s)\n`);
  const ended = (p: VerifyProgress, t: number) =>
    line(p, t, `${p.phase} done: ${count(p.items)} items read; ${count(p.checked)} checked, ${count(p.mismatches)} mismatches in all so far`);
  return {
    listener: (p) => {
      const t = now();
      if (current && (p.phase !== current.phase || p.workspace !== current.workspace)) {
        ended({ ...current, checked: p.checked, mismatches: p.mismatches }, t);
        last = { items: 0, at: t };
      }
      current = p;
      if (p.items - last.items < everyItems && t - last.at < everyMs) return;
      last = { items: p.items, at: t };
      line(p, t, describe(p));
    },
    done: () => {
      if (current) ended(current, now());
      current = undefined;
    },
  };
}
