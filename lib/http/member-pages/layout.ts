// The shell of the member pages: plain HTML and one inline stylesheet, allowed by its hash in the
// Content-Security-Policy, and no script at all. Bars are <meter> elements sized by the stylesheet
// (no style attribute anywhere: the CSP allows none). Every page has a skip link, a header with
// the way home and the sign-out form, and one <main>.
import { createHash } from 'node:crypto';
import { config } from '../../config.ts';
import { CSRF_FIELD } from '../csrf.ts';
import { html, Html, PAGE_HEADERS } from '../pages/html.ts';

const STYLE = `
:root { color-scheme: light; --ink: #1d2330; --muted: #545d6e; --line: #dfe3ea; --accent: #3450d6; --accent-dark: #2438a3; --bar: #3450d6; --bar-bg: #e6e9f2; --danger: #b42318; --bg: #f3f5f9; --card: #fff; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
a { color: var(--accent-dark); text-underline-offset: .15em; }
a:hover { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid rgba(52, 80, 214, .45); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: .5rem; background: var(--card); padding: .5rem .8rem; border-radius: .4rem; z-index: 2; }
.skip:focus { left: .5rem; }
header.top { display: flex; align-items: center; justify-content: space-between; flex-wrap: wrap; gap: .6rem 1rem; padding: .8rem 1.25rem; background: var(--card); border-bottom: 1px solid var(--line); }
.brand { display: inline-flex; align-items: center; gap: .6rem; color: var(--ink); text-decoration: none; font-weight: 600; }
.mark { display: inline-grid; place-items: center; width: 2rem; height: 2rem; border-radius: .5rem; background: var(--accent); color: #fff; font-weight: 700; font-size: .95rem; }
.account { display: flex; align-items: center; gap: .8rem; font-size: .92rem; color: var(--muted); min-width: 0; }
.account span { overflow-wrap: anywhere; }
.account form { margin: 0; }
button { font: inherit; font-weight: 600; padding: .45rem .9rem; border-radius: .5rem; border: 1px solid #b9c0cc; background: var(--card); color: var(--ink); cursor: pointer; white-space: nowrap; }
button:hover { background: #f0f2f6; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; width: 100%; padding: .7rem 1rem; margin-top: 1.4rem; }
button.primary:hover { background: var(--accent-dark); }
main { max-width: 62rem; margin: 0 auto; padding: 1.25rem 1.25rem 3rem; }
main.narrow { max-width: 30rem; padding-top: 2.5rem; }
.crumbs { list-style: none; display: flex; flex-wrap: wrap; gap: .2rem .4rem; margin: 0 0 .6rem; padding: 0; font-size: .92rem; color: var(--muted); }
.crumbs li + li::before { content: "›"; margin-right: .4rem; color: var(--muted); }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 .4rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 0 0 .8rem; }
h3, h4 { font-size: 1rem; margin: 1rem 0 .4rem; }
p { margin: 0 0 .8rem; }
.facts { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; margin: 0 0 1.2rem; padding: 0; color: var(--muted); font-size: .95rem; }
.facts div { display: flex; gap: .35rem; }
.facts dt { font-weight: 600; color: var(--ink); white-space: nowrap; }
.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: .78rem; font-weight: 600; letter-spacing: .02em; padding: .1rem .5rem; border-radius: 1rem; background: #e8ecfb; color: var(--accent-dark); vertical-align: .15em; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .8rem; padding: 1.1rem 1.25rem; margin: 0 0 1.2rem; }
.score { display: flex; align-items: baseline; gap: .6rem; margin: 0 0 1.2rem; }
.score strong { font-size: 2rem; line-height: 1; }
.score span { color: var(--muted); }
.rich { overflow-wrap: anywhere; }
.text { white-space: pre-line; overflow-wrap: anywhere; margin: 0; }
.rich > :last-child { margin-bottom: 0; }
.rich blockquote { margin: 0 0 .8rem; padding-left: .8rem; border-left: 3px solid var(--line); color: var(--muted); }
.rich pre { white-space: pre-wrap; background: var(--bg); padding: .6rem; border-radius: .4rem; }
table.ranking { width: 100%; border-collapse: collapse; }
table.ranking caption { text-align: left; color: var(--muted); font-size: .92rem; padding-bottom: .5rem; }
table.ranking th { text-align: left; font-size: .85rem; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); padding: .35rem .5rem; }
table.ranking td { border-bottom: 1px solid var(--line); padding: .55rem .5rem; vertical-align: middle; }
table.ranking tr:last-child td { border-bottom: 0; }
table.ranking .rank { width: 2.5rem; color: var(--muted); font-variant-numeric: tabular-nums; }
table.ranking .name a { font-weight: 600; overflow-wrap: anywhere; }
table.ranking .name .badge { margin-left: .4rem; }
table.ranking .value { width: 45%; }
.bar { display: flex; align-items: center; gap: .6rem; }
.bar meter { flex: 1; min-width: 3rem; height: .8rem; }
.bar .num { min-width: 3.5rem; text-align: right; font-weight: 600; font-variant-numeric: tabular-nums; }
meter { -webkit-appearance: none; appearance: none; background: var(--bar-bg); border-radius: .4rem; border: 0; }
meter::-webkit-meter-bar { background: var(--bar-bg); border: 0; border-radius: .4rem; height: .8rem; }
meter::-webkit-meter-optimum-value, meter::-webkit-meter-suboptimum-value, meter::-webkit-meter-even-less-good-value { background: var(--bar); border-radius: .4rem; }
meter::-moz-meter-bar { background: var(--bar); border-radius: .4rem; }
ul.plain { list-style: none; margin: 0; padding: 0; }
ul.plain > li { padding: .7rem 0; border-top: 1px solid var(--line); }
ul.plain > li:first-child { border-top: 0; padding-top: 0; }
.item-title { font-weight: 600; overflow-wrap: anywhere; }
.meta { display: flex; flex-wrap: wrap; gap: .2rem .9rem; font-size: .88rem; color: var(--muted); margin: .15rem 0 .25rem; }
.excerpt { margin: 0; color: var(--ink); overflow-wrap: anywhere; }
.importance { font-weight: 600; }
.importance-critical { color: #a3261a; }
.importance-important { color: #8a4b00; }
.empty { color: var(--muted); margin: 0; }
.pager { display: flex; justify-content: space-between; gap: 1rem; margin-top: 1rem; font-weight: 600; }
.muted { color: var(--muted); }
.part { border-top: 1px solid var(--line); padding: .7rem 0; }
.part:first-child { border-top: 0; padding-top: 0; }
label { display: block; font-weight: 600; margin: 1rem 0 .35rem; }
input[type=text], input[type=email], input[type=password] { width: 100%; font: inherit; padding: .65rem .75rem; border: 1px solid #b9c0cc; border-radius: .5rem; background: #fff; color: var(--ink); }
.hint { font-size: .88rem; color: var(--muted); margin: .3rem 0 0; }
.alert { border: 1px solid #f1b8b2; background: #fdf0ef; color: var(--danger); border-radius: .5rem; padding: .7rem .9rem; margin: 0 0 1rem; }
.notice { border: 1px solid #b7c6f2; background: #eef2fd; border-radius: .5rem; padding: .7rem .9rem; margin: 0 0 1rem; }
.code { font: .85rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  main { padding: 1rem .9rem 2.5rem; }
  h1 { font-size: 1.35rem; }
  .card { padding: .9rem; }
  header.top { padding: .7rem .9rem; }
  .account { flex-basis: 100%; justify-content: space-between; }
  table.ranking .rank { width: 1.8rem; padding-left: 0; }
  table.ranking .value { width: 40%; }
  .bar { gap: .4rem; }
  .bar meter { min-width: 2rem; }
  .bar .num { min-width: 2.5rem; }
}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** Nothing loads or runs but the stylesheet; forms post only here; no page is framed. */
const MEMBER_PAGE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** The headers every member page carries, whatever its status (no-store, not framable, no referrer, the CSP). */
export const memberPageHeaders = (): Record<string, string> => ({ ...PAGE_HEADERS, 'Content-Security-Policy': MEMBER_PAGE_CSP });

/** A page's address: the pages live at {app_url}, which may carry a path (a stage). */
export const pageUrl = (path: string): string => `${config.appUrl}${path}`;
export const entityPage = (id: string) => pageUrl(`/entities/${id}`);
export const notePage = (id: string) => pageUrl(`/notes/${id}`);
export const memberPage = (id: string) => pageUrl(`/members/${id}`);
export const teamPage = (id: string) => pageUrl(`/teams/${id}`);

/** Who is reading, for the header: their name and the sign-out form's CSRF token. */
export interface Reader {
  name: string;
  csrfToken: string;
}

export function memberDocument(title: string, body: Html, options: { reader?: Reader; narrow?: boolean } = {}): string {
  const reader = options.reader;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Product Management</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="${pageUrl('/')}"><span class="mark" aria-hidden="true">PM</span><span>Product Management</span></a>
${
  reader
    ? html`<div class="account"><span>Signed in as <strong>${reader.name}</strong></span><form method="post" action="${pageUrl('/sign-out')}"><input type="hidden" name="${CSRF_FIELD}" value="${reader.csrfToken}"><button type="submit">Sign out</button></form></div>`
    : ''
}
</header>
<main id="main"${options.narrow ? html` class="narrow"` : ''}>
${body}
</main>
</body>
</html>
`.text;
}
