// Progress of `score verify` on stderr, so stdout keeps the command's one JSON result. On a terminal
// (stderr.isTTY) one line redrawn in place: a bar over the passes, with the current pass's counts.
// Otherwise (a pipe, a log file, CI) a plain line when a pass begins and then every `everyItems`
// items or `everyMs` milliseconds, whichever comes first, so a log stays short and still shows life.
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
  let last = { phase: '', items: 0, at: started };
  return {
    listener: (p) => {
      const t = now();
      const newPhase = p.phase !== last.phase;
      if (!newPhase && p.items - last.items < everyItems && t - last.at < everyMs) return;
      last = { phase: p.phase, items: p.items, at: t };
      out.write(`score verify ${p.workspace} ${describe(p)} (${((t - started) / 1000).toFixed(0)} s)\n`);
    },
    done: () => {},
  };
}
