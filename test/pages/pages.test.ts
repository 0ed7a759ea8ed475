// The member pages over HTTP (a scripted browser without JavaScript): sign-in with its open-redirect
// rule, CSRF and throttling; the one 404 page; the entity page's ranking (numbers as GET …/score
// answers them) and its feedback newest first, paginated; the note and member pages; links.html;
// sign-out; the page session's lifetime and its separation from the consent page's session.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_FAILURES_PER_EMAIL } from '#lib/domain/sign-in-throttle.ts';
import { addMember, setMemberActive } from '#lib/store/members.ts';
import { create, entity, expectMemberPageHeaders, note, scoreOf, signInToPages, withoutReference } from './support.ts';
import { CHALLENGE, hidden, PASSWORD, ScriptedBrowser, withPassword, type Reply } from '../authcode/support.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
  // links.html at its default: {app_url}, where these pages are.
  delete process.env.PUBLIC_WEB_URL;
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

async function setUp(role: 'admin' | 'maker' | 'viewer' = 'maker') {
  const ws = await newWorkspace('Acme Product Team');
  const { member, token } = await ws.member({ role });
  await withPassword(member);
  return { ws, member, token: ws.token, memberToken: token };
}

async function signedIn(workspaceId: string, email: string): Promise<ScriptedBrowser> {
  const browser = new ScriptedBrowser(app);
  const res = await signInToPages(browser, workspaceId, email);
  expect(res.status, res.text).toBe(303);
  return browser;
}

/** A team made through the API; its id. */
async function team(token: string, name: string, handle: string, description?: string): Promise<string> {
  const res = await call(app, 'POST', '/v2/teams', { token, body: { data: { fields: { name, handle, ...(description ? { description } : {}) } } } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as string;
}

const addToTeam = async (token: string, id: string, memberIds: readonly string[]) => {
  const res = await call(app, 'PATCH', `/v2/teams/${id}`, {
    token,
    body: { data: { patch: [{ op: 'addItems', path: 'members', value: memberIds.map((m) => ({ id: m })) }] } },
  });
  expect(res.status, res.text).toBe(200);
};

/** The rows of a ranking table: name, score as shown, and the meter's value and maximum. */
function rankingRows(text: string): Array<{ rank: string; name: string; shown: string; value: number; max: number }> {
  const rows = [
    ...text.matchAll(
      /<tr><td class="rank">([^<]+)<\/td><td class="name"><a href="[^"]+">([^<]*)<\/a>.*?<meter min="0" max="(\d+)" value="(\d+)"[^>]*>[^<]*<\/meter><span class="num">([^<]+)<\/span>/g,
    ),
  ];
  return rows.map((m) => ({ rank: m[1]!, name: m[2]!, max: Number(m[3]), value: Number(m[4]), shown: m[5]! }));
}

describe('signing in to the pages', () => {
  it('a page without a session → 303 to the sign-in page, which brings the member back with a page session of its own (8 hours), never the consent session', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const browser = new ScriptedBrowser(app);
    const first = await browser.send('GET', `/entities/${product}`);
    expect(first.status).toBe(303);
    expect(first.location).toBe(`${app.url}/sign-in?next=%2Fentities%2F${product}`);
    const page = await browser.send('GET', first.location!);
    expectMemberPageHeaders(page, 200);
    expect(page.text).toContain('<h1>Sign in</h1>');
    expect(page.text).toContain('<label for="workspace">Workspace ID</label>');
    expect(hidden(page.text, 'next')).toBe(`/entities/${product}`);
    expect(page.headers['set-cookie']).toEqual([
      expect.stringMatching(/^__Host-pm_pages_presession=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=3600; HttpOnly; Secure; SameSite=Lax$/),
    ]);

    const signed = await browser.send('POST', '/sign-in', {
      csrf_token: hidden(page.text, 'csrf_token'),
      next: hidden(page.text, 'next'),
      workspace: ws.workspaceId,
      email: member.email,
      password: PASSWORD,
    });
    expect(signed.status, signed.text).toBe(303);
    expect(signed.location).toBe(`${app.url}/entities/${product}`);
    const cookies = signed.headers['set-cookie'] as string[];
    expect(cookies).toEqual([
      expect.stringMatching(/^__Host-pm_pages=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=28800; HttpOnly; Secure; SameSite=Lax$/),
      '__Host-pm_pages_presession=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax',
      `__Host-pm_workspace=${ws.workspaceId}; Path=/; Max-Age=2592000; HttpOnly; Secure; SameSite=Lax`,
    ]);
    expect(browser.cookies.has('__Host-pm_session')).toBe(false);
    const shown = await browser.send('GET', signed.location!);
    expectMemberPageHeaders(shown, 200);
    expect(shown.text).toContain('<h1>Checkout <span class="badge">Product</span></h1>');
    // The workspace is filled in next time.
    expect((await browser.send('GET', '/sign-in')).status).toBe(303);
    const fresh = new ScriptedBrowser(app);
    fresh.cookies.set('__Host-pm_workspace', ws.workspaceId);
    expect((await fresh.send('GET', '/sign-in')).text).toContain(
      `name="workspace" type="text" autocomplete="organization" required spellcheck="false" value="${ws.workspaceId}"`,
    );
  });

  it.each([
    'https://attacker.example/',
    '//attacker.example/entities',
    '/\\attacker.example',
    '/%2F%2Fattacker.example',
    'javascript:alert(1)',
    '/oauth/authorize?client_id=x',
    '/v2/entities',
    '/entities/not-a-uuid',
    '/entities/00000000-0000-4000-8000-000000000000/../../oauth/consent',
    '/entities/00000000-0000-4000-8000-000000000000#x',
    '/entities/00000000-0000-4000-8000-000000000000?a=<b>',
    ' /entities/00000000-0000-4000-8000-000000000000',
  ])('open-redirect attempt: next=%j → home, on this host', async (next) => {
    const { ws, member } = await setUp();
    const browser = new ScriptedBrowser(app);
    const res = await signInToPages(browser, ws.workspaceId, member.email, { next });
    expect(res.status, res.text).toBe(303);
    expect(res.location).toBe(`${app.url}/`);
  });

  it('next naming a page (and its list position) is honoured', async () => {
    const { ws, member } = await setUp();
    const next = '/members/00000000-0000-4000-8000-000000000000?notes=abc.def';
    const res = await signInToPages(new ScriptedBrowser(app), ws.workspaceId, member.email, { next });
    expect(res.location).toBe(`${app.url}${next}`);
  });

  it('a wrong password, an unknown e-mail, another workspace and a deactivated member get the same 401 page and no session', async () => {
    const { ws, member } = await setUp();
    const other = await setUp();
    const gone = await withPassword((await ws.member({ role: 'maker', active: false })).member);
    const answers: Reply[] = [
      await signInToPages(new ScriptedBrowser(app), ws.workspaceId, member.email, { password: 'not the password at all' }),
      await signInToPages(new ScriptedBrowser(app), ws.workspaceId, 'nobody@example.com'),
      await signInToPages(new ScriptedBrowser(app), other.ws.workspaceId, member.email),
      await signInToPages(new ScriptedBrowser(app), ws.workspaceId, gone.email),
    ];
    for (const res of answers) {
      expectMemberPageHeaders(res, 401);
      expect(res.text).toContain(
        '<p class="alert" role="alert" id="sign-in-problem">The workspace ID, the e-mail address or the password is not right, or this account cannot sign in here.</p>',
      );
      expect((res.headers['set-cookie'] as string[]).some((c) => c.startsWith('__Host-pm_pages='))).toBe(false);
    }
  });

  it("an incomplete form → 400 page asking for all three; a form without its CSRF token or with another browser's → 403, no session", async () => {
    const { ws, member } = await setUp();
    const browser = new ScriptedBrowser(app);
    const page = await browser.send('GET', '/sign-in');
    const incomplete = await browser.send('POST', '/sign-in', { csrf_token: hidden(page.text, 'csrf_token'), workspace: ws.workspaceId, email: member.email });
    expectMemberPageHeaders(incomplete, 400);
    expect(incomplete.text).toContain('Enter your workspace ID, your e-mail address and your password.');
    const other = new ScriptedBrowser(app);
    const otherPage = await other.send('GET', '/sign-in');
    for (const token of [undefined, hidden(otherPage.text, 'csrf_token')]) {
      const res = await browser.send('POST', '/sign-in', {
        ...(token ? { csrf_token: token } : {}),
        workspace: ws.workspaceId,
        email: member.email,
        password: PASSWORD,
      });
      expectMemberPageHeaders(res, 403);
      expect(res.text).toContain('<h1>This form has expired</h1>');
      expect(browser.cookies.has('__Host-pm_pages')).toBe(false);
    }
  });

  it('a form body that is not UTF-8 → 400 as an HTML page, on the member pages and the authorization pages alike', async () => {
    for (const path of ['/sign-in', '/sign-out', '/oauth/sign-in', '/oauth/consent']) {
      const res = await call(app, 'POST', path, { body: Buffer.from('a=\xff', 'latin1'), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.text, path).toContain('The request body is not valid UTF-8 text.');
      expect(res.text, path).toMatch(/^<!doctype html>/i);
    }
  });

  it(`failed attempts are throttled as on the authorization pages: past ${MAX_FAILURES_PER_EMAIL} for one e-mail → 429 with Retry-After, even with the right password`, async () => {
    const { ws, member } = await setUp();
    const browser = new ScriptedBrowser(app);
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++)
      expect((await signInToPages(browser, ws.workspaceId, member.email, { password: `wrong password ${i}` })).status).toBe(401);
    const res = await signInToPages(new ScriptedBrowser(app), ws.workspaceId, member.email);
    expectMemberPageHeaders(res, 429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.text).toMatch(/Too many failed sign-in attempts\. Wait \d+ minutes?/);
  });

  it(`failures just before a 15-minute window ends still count just after it: no second burst of ${MAX_FAILURES_PER_EMAIL} at the boundary`, async () => {
    const { ws, member } = await setUp();
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const boundary = (Math.floor(Date.now() / 900_000) + 1) * 900_000;
      vi.setSystemTime(boundary - 5_000);
      for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++)
        expect((await signInToPages(new ScriptedBrowser(app), ws.workspaceId, member.email, { password: `wrong password ${i}` })).status).toBe(401);
      vi.setSystemTime(boundary + 1_000);
      const res = await signInToPages(new ScriptedBrowser(app), ws.workspaceId, member.email);
      expectMemberPageHeaders(res, 429);
      // 5 failures × 899/900 of them still in the last 15 minutes: below 5 (at most 4) after 180 s.
      expect(res.headers['retry-after']).toBe('179');
      vi.setSystemTime(boundary + 180_000);
      const later = await signInToPages(new ScriptedBrowser(app), ws.workspaceId, member.email);
      expect(later.status, later.text).toBe(303);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a page session lasts 8 hours; a member deactivated meanwhile is sent to sign in', async () => {
    const { ws, member } = await setUp();
    const browser = await signedIn(ws.workspaceId, member.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 8 * 3600_000 - 60_000);
    expect((await browser.send('GET', '/')).status).toBe(200);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await browser.send('GET', '/')).location).toBe(`${app.url}/sign-in?next=%2F`);
    vi.useRealTimers();
    const again = await signedIn(ws.workspaceId, member.email);
    await setMemberActive(ws.workspaceId, member.email, false);
    expect((await again.send('GET', '/')).status).toBe(303);
  });
});

describe('a page session and the consent page', () => {
  it('signed in to the pages, an authorization request from a self-registered client still asks for the password, and a consent POST is refused', async () => {
    const { ws, member } = await setUp();
    const browser = await signedIn(ws.workspaceId, member.email);
    expect((await browser.send('GET', '/')).status).toBe(200);
    const registered = await call(app, 'POST', '/oauth/register', {
      body: { redirect_uris: ['https://phish.example/callback'], client_name: 'Totally Legit Assistant' },
    });
    expect(registered.status, registered.text).toBe(201);
    const request = new URLSearchParams({
      response_type: 'code',
      client_id: registered.json.client_id,
      redirect_uri: 'https://phish.example/callback',
      scope: 'entities:read notes:read',
      state: 's',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
    }).toString();
    const authorize = await browser.send('GET', `/oauth/authorize?${request}`);
    expect(authorize.status).toBe(200);
    expect(authorize.text).toContain('<h1>Sign in to your workspace</h1>');
    expect(authorize.text).toContain('<label for="password">Password</label>');
    expect(authorize.text).not.toContain('Allow');
    // Allow posted straight to the consent form: no consent session, so nothing is granted.
    const consent = await browser.send('POST', '/oauth/consent', { csrf_token: hidden(authorize.text, 'csrf_token'), request, decision: 'allow' });
    expect(consent.status).toBe(403);
    expect(consent.location).toBeUndefined();
    // The page session's own cookie value under the consent cookie's name finds no session either.
    browser.cookies.set('__Host-pm_session', browser.cookies.get('__Host-pm_pages')!);
    const disguised = await browser.send('GET', `/oauth/authorize?${request}`);
    expect(disguised.text).toContain('<h1>Sign in to your workspace</h1>');
  });
});

describe('the one 404 page', () => {
  it("another workspace's entity, an unknown id, a deleted entity and a malformed id give the same page; likewise notes, members and teams", async () => {
    const { ws, member, token } = await setUp();
    const other = await setUp();
    const theirs = await entity(app, other.token, 'product', 'Their product');
    const gone = await entity(app, token, 'product', 'Gone');
    expect((await call(app, 'DELETE', `/v2/entities/${gone}`, { token })).status).toBe(204);
    const theirNote = await note(app, other.token, 'Their note', undefined, []);
    const goneNote = await note(app, token, 'Gone note', undefined, []);
    expect((await call(app, 'DELETE', `/v2/notes/${goneNote}`, { token })).status).toBe(204);
    const theirTeam = await team(other.token, 'Their team', 'theirteam');
    const goneTeam = await team(token, 'Gone team', 'goneteam');
    expect((await call(app, 'DELETE', `/v2/teams/${goneTeam}`, { token })).status).toBe(204);
    const browser = await signedIn(ws.workspaceId, member.email);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const pages: Reply[] = [];
    for (const path of [
      `/entities/${theirs}`,
      `/entities/${unknown}`,
      `/entities/${gone}`,
      '/entities/not-an-id',
      `/notes/${theirNote}`,
      `/notes/${unknown}`,
      `/notes/${goneNote}`,
      `/members/${other.member.id}`,
      `/members/${unknown}`,
      `/teams/${theirTeam}`,
      `/teams/${unknown}`,
      `/teams/${goneTeam}`,
      '/teams/not-an-id',
    ]) {
      const res = await browser.send('GET', path);
      expectMemberPageHeaders(res, 404);
      pages.push(res);
    }
    const first = withoutReference(pages[0]!.text);
    expect(first).toContain('<h1>Page not found</h1>');
    for (const res of pages) expect(withoutReference(res.text)).toBe(first);
  });

  it('an id in upper case names the same record, as the API takes it', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const feedback = await note(app, token, 'Feedback', undefined, [[product, 'important']]);
    const core = await team(token, 'Core', 'core');
    const browser = await signedIn(ws.workspaceId, member.email);
    for (const [path, heading] of [
      [`/entities/${product}`, 'Checkout'],
      [`/notes/${feedback}`, 'Feedback'],
      [`/members/${member.id}`, member.email],
      [`/teams/${core}`, 'Core'],
    ] as const) {
      const lower = await browser.send('GET', path);
      const upper = await browser.send(
        'GET',
        path.toUpperCase().replace(/^\/[A-Z]+\//, (p) => p.toLowerCase()),
      );
      expectMemberPageHeaders(upper, 200);
      expect(upper.text).toContain(heading);
      expect(withoutReference(upper.text)).toBe(withoutReference(lower.text));
    }
  });
});

describe('a parameter a page does not take', () => {
  it('→ the 400 error page naming it, a status every page operation declares (test/support/contract.ts holds the answer to docs/openapi.json)', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const feedback = await note(app, token, 'Feedback', undefined, [[product, 'important']]);
    const browser = await signedIn(ws.workspaceId, member.email);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    for (const [path, signedInToo] of [
      ['/', true],
      [`/entities/${product}`, true],
      [`/notes/${feedback}`, true],
      [`/members/${member.id}`, true],
      [`/teams/${await team(token, 'Core', 'core')}`, true],
      ['/sign-in', false],
    ] as const) {
      const res = await call(app, 'GET', `${path}?utm_source=mail`, signedInToo ? { headers: { cookie } } : {});
      expect(res.status, `${path}: ${res.text.slice(0, 500)}`).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<h1>Request schema invalid</h1>');
      expect(res.text).toMatch(/utm_source/);
    }
  });
});

describe('the entity page', () => {
  it('ranks the children by the score GET …/score answers, ties by name, a bar each; the top 20 and a link to all of them in creation order', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const acme = await entity(app, token, 'company', 'Acme');
    const globex = await entity(app, token, 'company', 'Globex');
    const names = Array.from({ length: 23 }, (_, i) => `Feature ${String.fromCharCode(65 + ((i * 7) % 23))}`);
    const features: string[] = [];
    for (const name of names) features.push(await entity(app, token, 'feature', name, product));
    // Scores: critical 3 + important 2 on some, equal scores on others (ties by name).
    await note(app, token, 'Needs A', acme, [
      [features[0]!, 'critical'],
      [features[1]!, 'important'],
      [features[2]!, 'important'],
    ]);
    await note(app, token, 'Needs B', globex, [
      [features[0]!, 'important'],
      [features[3]!, 'nice to have'],
      [features[1]!, 'critical'],
    ]);
    const browser = await signedIn(ws.workspaceId, member.email);
    const page = await browser.send('GET', `/entities/${product}`);
    expectMemberPageHeaders(page, 200);
    const rows = rankingRows(page.text);
    expect(rows).toHaveLength(20);
    const expected = (await Promise.all(features.map(async (id, i) => ({ name: names[i]!, score: await scoreOf(app, token, id) }))))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name, 'en'))
      .slice(0, 20);
    expect(expected.slice(0, 4).map((e) => e.score)).toEqual([5, 5, 2, 1]);
    expect(rows.map((r) => [r.name, Number(r.shown), r.value])).toEqual(expected.map((e) => [e.name, e.score, e.score]));
    expect(rows.map((r) => r.rank)).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
    expect(new Set(rows.map((r) => r.max))).toEqual(new Set([5]));
    expect(page.text).toContain('<caption>The top 20 of 23, highest customer score first; equal scores by name.</caption>');
    expect(page.text).toContain(`<p class="score"><strong>${await scoreOf(app, token, product)}</strong>`);

    const all = await browser.send('GET', `/entities/${product}?children=all`);
    expectMemberPageHeaders(all, 200);
    const listed = [...all.text.matchAll(/<li><a class="item-title" href="[^"]+\/entities\/([0-9a-f-]{36})">/g)].map((m) => m[1]);
    expect(listed).toEqual(features);
  });

  it('shows the breadcrumb of ancestors, the facts, a sanitised description, and an empty state that says what to do', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const component = await entity(app, token, 'component', 'Wallets', product);
    const feature = await entity(app, token, 'feature', 'Apple Pay', component, {
      description: '<p>Pay with <b>Apple</b></p><script>window.x=1</script><img src=x onerror="window.x=2"><a href="javascript:alert(1)">click</a>',
      status: { name: 'Planned' },
      owner: { email: member.email },
    });
    const browser = await signedIn(ws.workspaceId, member.email);
    const page = await browser.send('GET', `/entities/${feature}`);
    expectMemberPageHeaders(page, 200);
    expect(page.text).toContain(
      `<nav aria-label="Breadcrumb"><ol class="crumbs"><li><a href="${app.url}/">Home</a></li><li><a href="${app.url}/entities/${product}">Checkout</a></li><li><a href="${app.url}/entities/${component}">Wallets</a></li><li aria-current="page">Apple Pay</li></ol></nav>`,
    );
    expect(page.text).toContain('<div><dt>Status</dt><dd>Planned</dd></div>');
    expect(page.text).toContain(`<div><dt>Owner</dt><dd><a href="${app.url}/members/${member.id}">${member.email}</a></dd></div>`);
    expect(page.text).toContain('<div class="rich"><p>Pay with <b>Apple</b></p><a rel="noopener noreferrer nofollow ugc">click</a></div>');
    expect(page.text).toContain('Nothing is under this feature yet. Create subfeatures with it as their parent');
    expect(page.text).toContain('No feedback is linked to this feature yet.');
  });

  it('lists the feedback linked to it newest first (by when it was linked or re-rated), 20 a page, with customer, importance and date', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const feature = await entity(app, token, 'feature', 'Apple Pay', product);
    const acme = await entity(app, token, 'company', 'Acme');
    const notes: string[] = [];
    for (let i = 0; i < 23; i++)
      notes.push(
        await note(app, token, `Note ${i}`, i % 2 ? acme : undefined, [[feature, i % 3 ? 'important' : 'critical']], { content: `<p>Text of note ${i}</p>` }),
      );
    // Re-rating the oldest makes it the most recent.
    expect(
      (await call(app, 'PUT', `/v2/notes/${notes[0]}/relationships/link/${feature}`, { token, body: { data: { importance: 'nice to have' } } })).status,
    ).toBeLessThan(300);
    const browser = await signedIn(ws.workspaceId, member.email);
    const first = await browser.send('GET', `/entities/${feature}`);
    expectMemberPageHeaders(first, 200);
    const titles = (text: string) => [...text.matchAll(/<a class="item-title" href="[^"]+\/notes\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map((m) => m[1]);
    const newestFirst = [0, ...Array.from({ length: 22 }, (_, i) => 22 - i)].map((i) => `Note ${i}`);
    expect(titles(first.text)).toEqual(newestFirst.slice(0, 20));
    expect(first.text).toMatch(
      /<a class="item-title" href="[^"]+">Note 0<\/a>\n<p class="meta"><span>No customer<\/span><span class="importance importance-nice-to-have">Nice to have<\/span><span><time datetime="[^"]+">\d{1,2} [A-Z][a-z]{2} \d{4}<\/time><\/span><\/p>\n<p class="excerpt">Text of note 0<\/p>/,
    );
    expect(first.text).toContain(`<span><a href="${app.url}/entities/${acme}">Acme</a></span><span class="importance importance-important">Important</span>`);
    const older = /<a href="([^"]+)" rel="next">Older feedback<\/a>/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    const second = await browser.send('GET', older);
    expect(titles(second.text)).toEqual(newestFirst.slice(20));
    expect(second.text).not.toContain('rel="next"');
    expect(second.text).toContain(`<a href="${app.url}/entities/${feature}">Newest feedback</a>`);
    // A position from this list means nothing on another entity's page.
    const elsewhere = await browser.send('GET', older.replace(feature, product));
    expectMemberPageHeaders(elsewhere, 400);
    expect(elsewhere.text).toContain('<h1>This link does not work here</h1>');
    // A list parameter the page has no list for is refused as such, not ignored.
    const sub = await entity(app, token, 'subfeature', 'Sub', feature);
    const initiative = await entity(app, token, 'initiative', 'Grow');
    for (const [path, why] of [
      [`/entities/${feature}?after=garbage`, 'after pages the list of all children, and goes with children=all'],
      [`/entities/${sub}?children=all&after=garbage`, 'a subfeature has nothing under it to list'],
      [`/entities/${sub}?children=all`, 'a subfeature has nothing under it to list'],
      [`/entities/${initiative}?notes=garbage`, 'the page of an initiative lists no feedback'],
    ]) {
      const stray = await browser.send('GET', path!);
      expectMemberPageHeaders(stray, 400);
      expect(stray.text).toContain(`The page link has a parameter this page does not take: ${why}. Open the page again from its first page.`);
    }
    // The company's page lists the notes it gave, newest first.
    const company = await browser.send('GET', `/entities/${acme}`);
    expect(titles(company.text)).toEqual(Array.from({ length: 11 }, (_, i) => `Note ${21 - 2 * i}`));
    expect(company.text).toContain('<h2 id="notes-heading">Feedback from Acme</h2>');
  });

  it('a note whose content holds markup as text (entity-escaped) shows it as text in the feedback lists: the excerpt is escaped again, never markup', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const feature = await entity(app, token, 'feature', 'Apple Pay', product);
    const acme = await entity(app, token, 'company', 'Acme');
    // The excerpt is plain text: the stored entities are decoded, so only the page's escape keeps it text.
    // (A handler after '/', not a space: expectMemberPageHeaders looks for ' on…=' in the page, escaped or not.)
    const id = await note(app, token, 'Escaped markup', acme, [[feature, 'important']], {
      content: `<p>&lt;svg/onload=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; "q" 'a'</p>`,
      owner: { email: member.email },
    });
    const excerpt = '<p class="excerpt">&lt;svg/onload=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;</p>';
    const browser = await signedIn(ws.workspaceId, member.email);
    for (const path of [`/entities/${feature}`, `/entities/${acme}`, `/members/${member.id}`]) {
      const page = await browser.send('GET', path);
      expectMemberPageHeaders(page, 200);
      expect(page.text, path).toContain(`<a class="item-title" href="${app.url}/notes/${id}">Escaped markup</a>`);
      expect(page.text, path).toContain(excerpt);
      expect(page.text, path).not.toMatch(/<svg|<script/);
    }
  });
});

describe('the note, member and home pages', () => {
  it('a note: its customer, its links with importance, its content sanitised', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const feature = await entity(app, token, 'feature', 'Apple Pay', product);
    const acme = await entity(app, token, 'company', 'Acme');
    const id = await note(
      app,
      token,
      'Needs Apple Pay',
      acme,
      [
        [feature, 'critical'],
        [product, 'nice to have'],
      ],
      {
        content:
          '<h1>Big</h1><p onclick="x()">Please <a href="https://acme.example/ticket">see</a></p><script>document.title="owned"</script><iframe src="https://x.example"></iframe><p style="color:red">red</p>',
        owner: { email: member.email },
      },
    );
    const browser = await signedIn(ws.workspaceId, member.email);
    const page = await browser.send('GET', `/notes/${id}`);
    expectMemberPageHeaders(page, 200);
    expect(page.text).toContain('<h1>Needs Apple Pay</h1>');
    expect(page.text).toContain(`<div><dt>Customer</dt><dd><a href="${app.url}/entities/${acme}">Acme</a> (company)</dd></div>`);
    expect(page.text).toContain(
      '<div class="rich"><h3>Big</h3><p>Please <a href="https://acme.example/ticket" rel="noopener noreferrer nofollow ugc">see</a></p><p>red</p></div>',
    );
    const links = [
      ...page.text.matchAll(
        /<a class="item-title" href="[^"]+\/entities\/([0-9a-f-]{36})">([^<]+)<\/a> <span class="badge">(\w+)<\/span><p class="meta"><span class="importance [^"]+">([^<]+)<\/span>/g,
      ),
    ].map((m) => m.slice(1));
    expect(links.sort()).toEqual(
      [
        [feature, 'Apple Pay', 'Feature', 'Critical'],
        [product, 'Checkout', 'Product', 'Nice to have'],
      ].sort(),
    );
  });

  it('a member: name, role, e-mail, their teams, and the entities and notes they own', async () => {
    const { ws, member, token } = await setUp('viewer');
    const [web, api] = [await team(token, 'Web', 'web'), await team(token, 'API', 'api')];
    await addToTeam(token, web, [member.id]);
    await addToTeam(token, api, [member.id]);
    const owned = await entity(app, token, 'product', 'Owned product', undefined, { owner: { email: member.email } });
    await note(app, token, 'Owned note', undefined, [], { owner: { email: member.email } });
    const browser = await signedIn(ws.workspaceId, member.email);
    const page = await browser.send('GET', `/members/${member.id}`);
    expectMemberPageHeaders(page, 200);
    expect(page.text).toContain(`<h1>${member.name}</h1>`);
    expect(page.text).toContain('<div><dt>Role</dt><dd>Viewer</dd></div>');
    expect(page.text).toContain(`<div><dt>E-mail</dt><dd>${member.email}</dd></div>`);
    expect(page.text).toContain(`<div><dt>Teams</dt><dd><a href="${app.url}/teams/${api}">API</a>, <a href="${app.url}/teams/${web}">Web</a></dd></div>`);
    expect(page.text).toContain(
      `<li><a class="item-title" href="${app.url}/entities/${owned}">Owned product</a> <span class="badge">Product</span> <span class="muted">· customer score 0</span></li>`,
    );
    expect(page.text).toContain('>Owned note</a>');
    const admin = await browser.send('GET', `/members/${ws.admin.id}`);
    expect(admin.text).toContain('owns no products, features or customers.');
    expect(admin.text).not.toContain('<dt>Teams</dt>');
  });

  it('a team: name, handle, plain-text description, its members newest first (linked to their pages), 50 a page; an entity page names its teams', async () => {
    const { ws, member, token } = await setUp('viewer');
    const id = await team(token, 'Checkout <crew>', 'checkout', 'Owns payments.\n<b>Not bold</b>');
    const empty = await (await signedIn(ws.workspaceId, member.email)).send('GET', `/teams/${id}`);
    expectMemberPageHeaders(empty, 200);
    expect(empty.text).toContain('has no members yet. Add some with PATCH /v2/teams/{id}');
    // 51 members, added in two requests: the second's come first (newest membership first).
    const ann = await addMember(ws.workspaceId, { email: `ann-${ws.workspaceId}@example.com`, name: 'Ann Smith', role: 'admin', active: true });
    const joined: string[] = [ann.id];
    for (let i = 0; i < 50; i++) joined.push((await ws.member({ role: 'maker', email: `crew${i}@example.com` })).member.id);
    await addToTeam(token, id, joined.slice(0, 26));
    await addToTeam(token, id, joined.slice(26));
    const product = await entity(app, token, 'product', 'Checkout', undefined, { teams: [{ id }] });

    const browser = await signedIn(ws.workspaceId, member.email);
    const page = await browser.send('GET', `/teams/${id}`);
    expectMemberPageHeaders(page, 200);
    expect(page.text).toContain('<h1>Checkout &lt;crew&gt; <span class="badge">Team</span></h1>');
    expect(page.text).toContain('<div><dt>Handle</dt><dd>@checkout</dd></div>');
    expect(page.text).toContain('<p class="text">Owns payments.\n&lt;b&gt;Not bold&lt;/b&gt;</p>');
    const listed = (text: string) => [...text.matchAll(/<li><a class="item-title" href="[^"]+\/members\/([0-9a-f-]{36})">/g)].map((m) => m[1]!);
    const first = listed(page.text);
    expect(first).toHaveLength(50);
    // Each request's members share one time; across the two, the later request's come first.
    expect(new Set(first.slice(0, 25))).toEqual(new Set(joined.slice(26)));
    const next = /<a href="([^"]+)" rel="next">More members<\/a>/.exec(page.text)?.[1];
    expect(next).toMatch(new RegExp(`^${app.url}/teams/${id}\\?members=`));
    const rest = await browser.send('GET', next!.replaceAll('&amp;', '&'));
    expectMemberPageHeaders(rest, 200);
    const second = listed(rest.text);
    expect(second).toHaveLength(1);
    expect(new Set([...first, ...second])).toEqual(new Set(joined));
    // A member whose name is not their e-mail: both, linked to their page (on whichever page of the list they fall).
    expect(page.text + rest.text).toContain(
      `<li><a class="item-title" href="${app.url}/members/${ann.id}">Ann Smith</a> <span class="badge">Admin</span> <span class="muted">· ${ann.email}</span></li>`,
    );
    expect(rest.text).toContain(`<a href="${app.url}/teams/${id}">First page</a>`);
    // A list link of this page does not work on another team's.
    const other = await team(token, 'Other', 'other');
    const foreign = await browser.send('GET', `/teams/${other}?${new URL(next!.replaceAll('&amp;', '&')).searchParams.toString()}`);
    expectMemberPageHeaders(foreign, 400);

    const entityPage = await browser.send('GET', `/entities/${product}`);
    expect(entityPage.text).toContain(`<div><dt>Teams</dt><dd><a href="${app.url}/teams/${id}">Checkout &lt;crew&gt;</a></dd></div>`);
  });

  it('home: the products ranked by score; an empty workspace says what to do next', async () => {
    const { ws, member, token } = await setUp();
    const browser = await signedIn(ws.workspaceId, member.email);
    const empty = await browser.send('GET', '/');
    expectMemberPageHeaders(empty, 200);
    expect(empty.text).toContain('<h1>Acme Product Team</h1>');
    expect(empty.text).toContain('No products yet. Create one with');
    const low = await entity(app, token, 'product', 'Low');
    const high = await entity(app, token, 'product', 'High');
    await note(app, token, 'n', undefined, [[high, 'critical']]);
    const page = await browser.send('GET', '/');
    expect(rankingRows(page.text).map((r) => [r.name, r.shown])).toEqual([
      ['High', String(await scoreOf(app, token, high))],
      ['Low', String(await scoreOf(app, token, low))],
    ]);
  });
});

describe('links.html', () => {
  it('unset PUBLIC_WEB_URL: entities, notes, members and teams link to these pages, which answer', async () => {
    const { ws, member, token } = await setUp();
    const product = await entity(app, token, 'product', 'Checkout');
    const noteId = await note(app, token, 'A note', undefined, [[product, 'critical']]);
    const teamId = await team(token, 'Core', 'core');
    const browser = await signedIn(ws.workspaceId, member.email);
    const reads = [
      await call(app, 'GET', `/v2/entities/${product}`, { token }),
      await call(app, 'GET', `/v2/notes/${noteId}`, { token }),
      await call(app, 'GET', `/v2/members/${member.id}`, { token }),
      await call(app, 'GET', `/v2/teams/${teamId}`, { token }),
    ];
    expect(reads.map((r) => r.json.data.links.html)).toEqual([
      `${app.url}/entities/${product}`,
      `${app.url}/notes/${noteId}`,
      `${app.url}/members/${member.id}`,
      `${app.url}/teams/${teamId}`,
    ]);
    for (const r of reads) expectMemberPageHeaders(await browser.send('GET', r.json.data.links.html as string), 200);
    process.env.PUBLIC_WEB_URL = 'https://web.example.test/acme';
    try {
      expect((await call(app, 'GET', `/v2/entities/${product}`, { token })).json.data.links.html).toBe(`https://web.example.test/acme/entities/${product}`);
    } finally {
      delete process.env.PUBLIC_WEB_URL;
    }
  });
});

describe('signing out', () => {
  it('without the CSRF token of the session → 403 and still signed in; with it → the session ends, its cookie too', async () => {
    const { ws, member } = await setUp();
    const browser = await signedIn(ws.workspaceId, member.email);
    const home = await browser.send('GET', '/');
    const other = await signedIn(ws.workspaceId, member.email);
    const otherToken = hidden((await other.send('GET', '/')).text, 'csrf_token');
    for (const form of [{}, { csrf_token: otherToken }] as Array<Record<string, string>>) {
      const refused = await browser.send('POST', '/sign-out', form);
      expectMemberPageHeaders(refused, 403);
      expect((await browser.send('GET', '/')).status).toBe(200);
    }
    const session = browser.cookies.get('__Host-pm_pages')!;
    const out = await browser.send('POST', '/sign-out', { csrf_token: hidden(home.text, 'csrf_token') });
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${app.url}/sign-in?signed_out=1`);
    expect(out.headers['set-cookie']).toEqual(['__Host-pm_pages=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax']);
    expect((await browser.send('GET', out.location!)).text).toContain('<p class="notice" role="status">You have signed out.</p>');
    // The old cookie, replayed, finds no session.
    browser.cookies.set('__Host-pm_pages', session);
    expect((await browser.send('GET', '/')).status).toBe(303);
    // The other browser's session is its own.
    expect((await other.send('GET', '/')).status).toBe(200);
  });
});

describe('the request budget', () => {
  it("a member's pages spend their request budget: past it, a 429 page with Retry-After", async () => {
    const { ws, member } = await setUp();
    const browser = await signedIn(ws.workspaceId, member.email);
    process.env.RATE_LIMIT_PER_SECOND = '2';
    // The clock the budget is counted by stands still, so what is admitted does not depend on how long a page takes.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await browser.send('GET', '/'));
      expect(answers.map((r) => [r.status, r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']])).toEqual([
        [200, '2', '1'],
        [200, '2', '0'],
        [429, '2', '0'],
      ]);
      const refused = answers[2]!;
      expectMemberPageHeaders(refused, 429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.text).toContain('<h1>Rate limit exceeded</h1>');
    } finally {
      vi.useRealTimers();
      process.env.RATE_LIMIT_PER_SECOND = '0';
    }
  });
});

describe('who may read what', () => {
  it('a viewer reads the pages as a viewer token reads the API: entities, notes, members with names and e-mails, teams', async () => {
    const { ws, member, token } = await setUp('viewer');
    const product = await entity(app, token, 'product', 'Checkout');
    const id = await create(app, token, '/v2/notes', { type: 'textNote', fields: { name: 'Seen by viewers' } });
    const teamId = await team(token, 'Core', 'core');
    const browser = await signedIn(ws.workspaceId, member.email);
    for (const path of ['/', `/entities/${product}`, `/notes/${id}`, `/members/${ws.admin.id}`, `/teams/${teamId}`])
      expectMemberPageHeaders(await browser.send('GET', path), 200);
    expect((await browser.send('GET', `/members/${ws.admin.id}`)).text).toContain(ws.admin.email);
  });
});
