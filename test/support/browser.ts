// A real browser for the page tests: Debian's chromium driven by playwright-core (Playwright's own
// browser download cannot reach its host here). One fresh profile per launch; screenshots go to
// the gitignored test-artifacts/ folder and their paths are printed so a reviewer can open them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const ARTIFACTS_DIR = join(import.meta.dirname, '..', '..', 'test-artifacts');

const ARGS = [
  '--no-sandbox', // CI runs as root
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The chromium binary on PATH (CHROMIUM_PATH overrides), or a message saying how to get one. */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('No chromium on PATH: install it (apt-get install -y chromium; .ci/run does this) or set CHROMIUM_PATH.');
  }
}

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Saves a full-page screenshot under test-artifacts/ and prints its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'pm-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: ARGS,
    viewport: { width: 1000, height: 760 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    screenshot: async (name) => {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      console.log(`screenshot: ${path}`);
      return path;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
