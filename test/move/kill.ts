// A move run as the operator runs it — the admin CLI in a child process — and killed by pid with
// SIGKILL at a point of its own: when its run item (lib/store/move/runs.ts) first satisfies `when`,
// after a random delay. Answers whether the child was still at work when it was killed.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { readRun, type MoveRun } from '#lib/store/move/runs.ts';
import { PROJECT_ROOT } from '../../local/paths.ts';

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// Node itself with tsx as a loader: the `tsx` command would run the CLI in a grandchild that a
// SIGKILL of its pid leaves running.
function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/admin.ts', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, LOG_LEVEL: 'silent' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliRun>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export const runCli = (args: string[]): Promise<CliRun> => start(args).done;

/** Runs the command and SIGKILLs it `delayMs` after its run first satisfies `when` (or when it ends by itself). */
export async function runAndKill(
  args: string[],
  runKey: string,
  when: (run: MoveRun<any>) => boolean | Promise<boolean>,
  delayMs: number,
): Promise<{ killed: boolean; run: CliRun }> {
  const { child, done } = start(args);
  let ended = false;
  void done.then(() => (ended = true));
  while (!ended) {
    const run = await readRun<any>(runKey);
    if (run && (await when(run))) break;
    await sleep(20);
  }
  await sleep(delayMs);
  const killed = !ended;
  if (killed) process.kill(child.pid!, 'SIGKILL');
  return { killed, run: await done };
}
