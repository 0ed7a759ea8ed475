// A real browser for the page tests: Debian's chromium driven by playwright-core (Playwright's own
// browser download cannot reach its host here). One fresh profile per launch; screenshots go to
// the gitignored test-artifacts/ folder and their paths are printed so a reviewer can open them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const ARTIFACTS_DIR = join(import.meta.dirname, '..', '..', 'test-artifacts');

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
function chromiumPath(): string {
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

/** A client application's redirect URI on loopback: a page that just says it received the answer. */
export async function startCallbackServer(title: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>${title}</title><p>Connected.</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
