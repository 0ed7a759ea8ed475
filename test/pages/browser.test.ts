// The member pages in a real browser (Debian's chromium via playwright-core), as a person uses
// them: open a product from the links.html of an API response, sign in, read its features in score
// order with the numbers GET …/score answers and their bars in the same order, follow a feature and
// one of its notes, sign out. Stored <script>, an onerror attribute and a javascript: link in a note
// do not run, nor does such markup stored as entity-escaped text (a note's excerpt decodes it);
// another workspace's entity is the 404 page; a page session does not approve a consent page.
// axe-core (injected through playwright) finds no violation on any page, and each page is
// screenshot at 1 280 and 390 pixels wide into test-artifacts/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entity, note, scoreOf } from './support.ts';
import { CHALLENGE, PASSWORD, withPassword } from '../authcode/support.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { launchBrowser, type TestBrowser } from '../support/browser.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let app: TestApp;
let browser: TestBrowser;

beforeAll(async () => {
  app = await startApp();
  // links.html at its default: {app_url}, where these pages are.
  delete process.env.PUBLIC_WEB_URL;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[]; failureSummary: string }>;
}

/** axe-core's violations on the current page (its script evaluated through the DevTools protocol, which the page's CSP does not govern). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate<AxeViolation[]>("axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)");
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`).join(' | ')}`);
}

/** Screenshots at desktop and phone width, then axe at both widths: no violation. */
async function check(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await browser.screenshot(`pages-${name}-${width}`);
    expect(await axeViolations(page), `${name} at ${width}px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const FEATURES = ['Apple Pay', 'Google Pay', 'Gift cards', 'Saved cards', 'Invoices', 'One-click checkout'];

async function seed() {
  const ws = await newWorkspace('Acme Product Team');
  const { member } = await ws.member({ role: 'maker', email: `ann.smith-${process.pid}-${Date.now()}@example.com` });
  await withPassword(member);
  const t = ws.token;
  const product = await entity(app, t, 'product', 'Checkout', undefined, {
    description: '<p>Everything between the cart and the receipt.</p>',
    status: { name: 'In progress' },
    owner: { email: member.email },
  });
  const wallets = await entity(app, t, 'component', 'Wallets', product);
  const team = await call(app, 'POST', '/v2/teams', {
    token: t,
    body: { data: { fields: { name: 'Payments', handle: 'payments', description: 'Checkout, wallets and refunds.' } } },
  });
  expect(team.status, team.text).toBe(201);
  const joined = await call(app, 'PATCH', `/v2/teams/${team.json.data.id}`, {
    token: t,
    body: { data: { patch: [{ op: 'addItems', path: 'members', value: [{ id: member.id }, { id: ws.admin.id }] }] } },
  });
  expect(joined.status, joined.text).toBe(200);
  const ids = new Map<string, string>();
  for (const name of FEATURES) ids.set(name, await entity(app, t, 'feature', name, name.endsWith('Pay') ? wallets : product));
  const companies = await Promise.all(['Acme Corp', 'Globex', 'Initech', 'Umbrella'].map((n) => entity(app, t, 'company', n)));
  const f = (name: string) => ids.get(name)!;
  await note(
    app,
    t,
    'Checkout must support Apple Pay',
    companies[0],
    [
      [f('Apple Pay'), 'critical'],
      [f('Saved cards'), 'important'],
    ],
    {
      content: '<p>Our customers on iPhone drop off at the card form. <strong>Apple Pay</strong> would fix it.</p>',
      owner: { email: member.email },
    },
  );
  await note(
    app,
    t,
    'Wallet payments for EU stores',
    companies[1],
    [
      [f('Apple Pay'), 'important'],
      [f('Google Pay'), 'critical'],
    ],
    { content: '<p>Both wallets, please.</p>' },
  );
  await note(
    app,
    t,
    'Gift cards at Christmas',
    companies[2],
    [
      [f('Gift cards'), 'critical'],
      [f('Invoices'), 'nice to have'],
    ],
    { content: '<p>Seasonal demand.</p>' },
  );
  await note(
    app,
    t,
    'Invoices for B2B',
    companies[3],
    [
      [f('Invoices'), 'critical'],
      [f('Gift cards'), 'important'],
    ],
    { content: '<p>We need proper invoices.</p>' },
  );
  await note(app, t, 'Saved cards request', companies[3], [[f('Saved cards'), 'important']], { content: '<p>Remember my card.</p>' });
  return { ws, member, product, ids };
}

describe('Must show: the member pages in Chromium', () => {
  it("sign in from links.html, read the ranking with the score route's numbers and bars in the same order, follow a note, sign out; axe finds nothing; screenshots", async () => {
    const { ws, member, product, ids } = await seed();
    const api = await call(app, 'GET', `/v2/entities/${product}`, { token: ws.token });
    const html = api.json.data.links.html as string;
    expect(html).toBe(`${app.url}/entities/${product}`);
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });

    // The link first leads to the sign-in page, which comes back to it.
    await page.goto(html);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/entities/${product}`);
    await check(page, 'sign-in');
    await page.getByLabel('Workspace ID').fill(ws.workspaceId);
    await page.getByLabel('E-mail address').fill(member.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(html);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Checkout Product');

    // Children: the component and the product's own features, in score order with the API's numbers.
    const table = page.getByRole('table');
    const rows = [];
    for (const tr of await table.locator('tbody tr').all()) {
      const meter = tr.locator('meter');
      const value = Number(await meter.getAttribute('value'));
      const max = Number(await meter.getAttribute('max'));
      // The bar as drawn: the meter's width times its fraction.
      rows.push({
        name: await tr.locator('td.name a').textContent(),
        shown: await tr.locator('.num').textContent(),
        value,
        max,
        width: ((await meter.boundingBox())!.width * value) / max,
      });
    }
    const children = [
      ['Wallets', await entityId(ws.token, product, 'Wallets')],
      ...['Gift cards', 'Saved cards', 'Invoices', 'One-click checkout'].map((n) => [n, ids.get(n)!]),
    ];
    const expected = (await Promise.all(children.map(async ([name, id]) => ({ name: name!, score: await scoreOf(app, ws.token, id!) })))).sort(
      (a, b) => b.score - a.score || a.name.localeCompare(b.name, 'en'),
    );
    expect(expected.map((e) => [e.name, e.score])).toEqual([
      ['Wallets', 8],
      ['Gift cards', 5],
      ['Invoices', 4],
      ['Saved cards', 4],
      ['One-click checkout', 0],
    ]);
    expect(rows.map((r) => [r.name, Number(r.shown), r.value])).toEqual(expected.map((e) => [e.name, e.score, e.score]));
    expect(new Set(rows.map((r) => r.max))).toEqual(new Set([8]));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.width).toBeLessThanOrEqual(rows[i - 1]!.width);
    expect(rows[0]!.width).toBeGreaterThan(rows[3]!.width);
    await expect(page.locator('.score strong').textContent()).resolves.toBe(String(await scoreOf(app, ws.token, product)));
    await check(page, 'product');

    // Into the component, then a feature, then one of its notes.
    await page.getByRole('link', { name: 'Wallets' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wallets Component' }).waitFor();
    await page.getByRole('table').getByRole('link', { name: 'Apple Pay' }).click();
    await page.getByRole('heading', { level: 1, name: 'Apple Pay Feature' }).waitFor();
    const breadcrumb = await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem').allTextContents();
    expect(breadcrumb).toEqual(['Home', 'Checkout', 'Wallets', 'Apple Pay']);
    const feedback = await page.getByRole('list', { name: 'Feedback linked here' }).getByRole('listitem').allTextContents();
    expect(feedback.map((t) => t.split('\n')[0])).toEqual(['Wallet payments for EU stores', 'Checkout must support Apple Pay']);
    await check(page, 'feature');
    await page.getByRole('link', { name: 'Checkout must support Apple Pay' }).click();
    await page.getByRole('heading', { level: 1, name: 'Checkout must support Apple Pay' }).waitFor();
    const linked = await page.getByRole('list', { name: 'Linked entities' }).getByRole('listitem').allInnerTexts();
    expect(linked.map((t) => t.replace(/\s+/g, ' ').trim()).sort()).toEqual(['Apple Pay Feature Critical', 'Saved cards Feature Important']);
    await expect(page.getByText('Our customers on iPhone drop off at the card form.').count()).resolves.toBe(1);
    await check(page, 'note');

    // The customer, the owner, home.
    await page.getByRole('link', { name: 'Acme Corp' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Acme Corp Company' }).waitFor();
    await check(page, 'company');
    await page.goto(`${app.url}/members/${member.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(page, 'member');
    // The member's team, and its members.
    await page.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments Team' }).waitFor();
    const crew = await page.getByRole('list', { name: 'Members of Payments' }).getByRole('listitem').allInnerTexts();
    expect(crew.map((t) => t.replace(/\s+/g, ' ').trim()).sort()).toEqual([`${member.name} Maker`, `${ws.admin.name} Admin`].sort());
    await check(page, 'team');
    await page.getByRole('link', { name: 'Product Management' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Product Team' }).waitFor();
    await check(page, 'home');

    // Keyboard: the first Tab reaches the skip link, which leads to the content.
    await page.keyboard.press('Tab');
    await expect(page.evaluate('document.activeElement && document.activeElement.textContent')).resolves.toBe('Skip to content');

    // Sign out: back to the sign-in page; the product's page asks for signing in again.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await page.goto(html);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  }, 300_000);

  it('a stored <script>, an onerror attribute and a javascript: link in a note do not run, neither as markup nor as entity-escaped text', async () => {
    const ws = await newWorkspace('XSS workspace');
    const { member } = await ws.member({ role: 'viewer' });
    await withPassword(member);
    const product = await entity(app, ws.token, 'product', 'Target', undefined, {
      description: '<script>window.__xss = "description"</script><img src="x" onerror="window.__xss = \'description img\'">',
    });
    const id = await note(app, ws.token, '<script>window.__xss = "name"</script>Hostile note', undefined, [[product, 'critical']], {
      content:
        '<p>Hello</p>' +
        // Markup stored as text (entity-escaped): the excerpt in the entity page's feedback list decodes it, so only the page's escape keeps it text.
        '<p>&lt;img src=x onerror="window.__xss = \'escaped img\'"&gt;&lt;script&gt;window.__xss = "escaped script"&lt;/script&gt;</p>' +
        '<script>window.__xss = "script"</script><img src="x" onerror="window.__xss = \'onerror\'"><a href="javascript:window.__xss = \'link\'">click me</a><svg><script>window.__xss = "svg"</script></svg>',
    });
    const page = await browser.context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      await signIn(page, ws.workspaceId, member.email, `/notes/${id}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('<script>window.__xss = "name"</script>Hostile note');
      // No longer a link at all: its javascript: URL was dropped with the href.
      await expect(page.getByRole('link', { name: 'click me' }).count()).resolves.toBe(0);
      await page.getByText('click me').click();
      await page.goto(`${app.url}/entities/${product}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const state = await page.evaluate(
        "({ xss: window.__xss, scripts: document.scripts.length, handlers: document.querySelectorAll('[onerror],[onclick],[onload]').length })",
      );
      expect(state).toEqual({ xss: undefined, scripts: 0, handlers: 0 });
      await expect(page.locator('p.excerpt').allTextContents()).resolves.toEqual([
        'Hello <img src=x onerror="window.__xss = \'escaped img\'"><script>window.__xss = "escaped script"</script> click me',
      ]);
      await expect(page.locator('p.excerpt *').count()).resolves.toBe(0);
      await page.goBack();
      const onNote = await page.evaluate(
        '({ xss: window.__xss, scripts: document.scripts.length, jsLinks: document.querySelectorAll(\'a[href^="javascript:" i]\').length })',
      );
      expect(onNote).toEqual({ xss: undefined, scripts: 0, jsLinks: 0 });
      expect(dialogs).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("another workspace's entity is the 404 page; a page session does not approve a consent page", async () => {
    const { ws, member } = await seed();
    const other = await newWorkspace('Other workspace');
    const theirs = await entity(app, other.token, 'product', 'Secret product');
    const { page } = browser;
    {
      await signIn(page, ws.workspaceId, member.email, '/');
      const res = await page.goto(`${app.url}/entities/${theirs}`);
      expect(res!.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
      await expect(page.content()).resolves.not.toContain('Secret product');
      await check(page, 'not-found');

      // A self-registered client's authorization request: the consent flow still asks for the password.
      const registered = await call(app, 'POST', '/oauth/register', {
        body: { redirect_uris: ['https://phish.example/callback'], client_name: 'Helpful Assistant' },
      });
      expect(registered.status, registered.text).toBe(201);
      const authorize = new URL(`${app.url}/oauth/authorize`);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: registered.json.client_id,
        redirect_uri: 'https://phish.example/callback',
        scope: 'entities:read',
        state: 's',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
      }).toString();
      await page.goto(authorize.href);
      await page.getByRole('heading', { level: 1, name: 'Sign in to your workspace' }).waitFor();
      await expect(page.getByLabel('Password').count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'Allow' }).count()).resolves.toBe(0);
    }
  }, 120_000);
});

async function entityId(token: string, parent: string, name: string): Promise<string> {
  const res = await call(app, 'GET', `/v2/entities?parent[id]=${parent}`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.json.data as Array<{ id: string; fields: { name: string } }>).find((e) => e.fields.name === name)!.id;
}

/** Signs in afresh (another test's session in the shared browser profile is dropped first). */
async function signIn(page: Page, workspaceId: string, email: string, next: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${app.url}/sign-in?${new URLSearchParams({ next }).toString()}`);
  await page.getByLabel('Workspace ID').fill(workspaceId);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${app.url}${next}`);
}
