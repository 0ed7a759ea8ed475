// Progress of `score verify` on stderr, so stdout keeps the command's one JSON result. On a terminal
// (stderr.isTTY) one line redrawn in place: a bar over the passes, with the current pass's counts.
// Otherwise (a pipe, a log file, CI) a plain line every `everyItems` items or `everyMs` milliseconds,
// whichever comes first, and one when a pass ends, so a log stays short and still shows life.
import { VERIFY_PHASES, type ProgressListener, type VerifyProgress } from '#lib/store/verify.ts';

interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

const BAR = 20;
const count = (n: number) => n.toLocaleString('en').replace(/,/g, ' ');

// What each pass reads (lib/store/verify.ts): "notes: 0 items read" for a workspace whose notes have
// no customer read as if the pass had missed them, so each count names what it counts.
const READS: Record<VerifyProgress['phase'], [one: string, many: string]> = {
  deletes: ['record being deleted', 'records being deleted'],
  notes: ['note with a customer', 'notes with a customer'],
  links: ['link', 'links'],
  copies: ['note with copied links', 'notes with copied links'],
  entities: ['item (entities, their links and rating items)', 'items (entities, their links and rating items)'],
  ratings: ['rating item', 'rating items'],
};
const reads = (p: VerifyProgress) => `${count(p.items)} ${READS[p.phase][p.items === 1 ? 0 : 1]} read`;

function describe(p: VerifyProgress): string {
  return `${p.phase}: ${reads(p)}, ${count(p.checked)} checked, ${count(p.mismatches)} mismatches`;
}

/** A listener for verifyScores' progress, and `done` to end the display before the result is printed. */
export function verifyProgress(
  out: ProgressOutput = process.stderr,
  { everyItems = 10_000, everyMs = 5_000, now = () => Date.now() } = {},
): { listener: ProgressListener; done: () => void } {
  const started = now();
  if (out.isTTY) {
    let last: VerifyProgress | undefined;
    // The bar shows the passes finished: empty during the first, full once the last has ended.
    const draw = (finished: number, what: string) => {
      const filled = Math.round((finished / VERIFY_PHASES.length) * BAR);
      out.write(`\r\x1b[2Kscore verify [${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}] ${what}`);
    };
    return {
      listener: (p) => {
        const step = VERIFY_PHASES.indexOf(p.phase);
        draw(step, `${step + 1}/${VERIFY_PHASES.length} ${describe(p)}`);
        last = p;
      },
      done: () => {
        if (!last) return;
        draw(VERIFY_PHASES.length, `done: ${count(last.checked)} checked, ${count(last.mismatches)} mismatches`);
        out.write('\n');
        last = undefined;
      },
    };
  }
  // A pass's line when it ends, with what it read (its first line would say 0 of everything).
  let current: VerifyProgress | undefined;
  let last = { items: 0, at: started };
  const line = (p: VerifyProgress, t: number, what: string) => out.write(`score verify ${p.workspace} ${what} (${((t - started) / 1000).toFixed(0)} s)\n`);
  const ended = (p: VerifyProgress, t: number) =>
    line(p, t, `${p.phase} done: ${reads(p)}; ${count(p.checked)} checked, ${count(p.mismatches)} mismatches in all so far`);
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

/**
 * Progress of a command that runs in phases (restore, export, imports): on a terminal a bar per
 * phase redrawn in place — items done (of how many, when known), the rate, and the time left when the
 * total is known — and a line kept when the phase ends; otherwise a line when a phase ends and one
 * every `everyMs` while it runs.
 */
export interface PhaseProgress {
  /** A new phase; `total` when known (the bar and the time left need it), `unit` what is counted. */
  phase(name: string, options?: { total?: number; unit?: string }): void;
  /** How far the current phase got: `done` so far (of `total`, when it changed). */
  update(done: number, total?: number): void;
  /** Ends the current phase's display. */
  end(): void;
}

export function phaseProgress(command: string, out: ProgressOutput = process.stderr, { everyMs = 5_000, now = () => Date.now() } = {}): PhaseProgress {
  let current: { name: string; total?: number | undefined; unit: string; started: number; done: number; lastLine: number } | undefined;
  const rate = (c: NonNullable<typeof current>, t: number) => (t > c.started ? (c.done * 1000) / (t - c.started) : 0);
  const describe = (c: NonNullable<typeof current>, t: number) => {
    const r = rate(c, t);
    const of = c.total !== undefined ? ` of ${count(c.total)}` : '';
    const left = c.total !== undefined && r > 0 && c.done < c.total ? `, ${Math.ceil((c.total - c.done) / r)} s left` : '';
    return `${count(c.done)}${of} ${c.unit}, ${count(Math.round(r))}/s${left} (${((t - c.started) / 1000).toFixed(0)} s)`;
  };
  const draw = (c: NonNullable<typeof current>, t: number) => {
    const filled = c.total ? Math.min(BAR, Math.round((c.done / c.total) * BAR)) : 0;
    const bar = c.total !== undefined ? ` [${'█'.repeat(filled)}${'░'.repeat(BAR - filled)}]` : '';
    out.write(`\r\x1b[2K${command} ${c.name}${bar} ${describe(c, t)}`);
  };
  const end = () => {
    if (!current) return;
    const t = now();
    if (out.isTTY) {
      draw(current, t);
      out.write('\n');
    } else out.write(`${command} ${current.name} done: ${describe(current, t)}\n`);
    current = undefined;
  };
  return {
    phase: (name, options = {}) => {
      end();
      const t = now();
      current = { name, total: options.total, unit: options.unit ?? 'items', started: t, done: 0, lastLine: t };
      if (out.isTTY) draw(current, t);
    },
    update: (done, total) => {
      if (!current) return;
      current.done = done;
      if (total !== undefined) current.total = total;
      const t = now();
      if (out.isTTY) {
        // A redraw at most every tenth of a second: a terminal cannot show more.
        if (t - current.lastLine < 100) return;
        current.lastLine = t;
        draw(current, t);
      } else if (t - current.lastLine >= everyMs) {
        current.lastLine = t;
        out.write(`${command} ${current.name}: ${describe(current, t)}\n`);
      }
    },
    end,
  };
}
