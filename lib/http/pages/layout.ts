// The shell of the server-rendered pages (sign-in, consent, error): plain HTML and one stylesheet,
// no script at all. The stylesheet is inline and allowed by its hash in the Content-Security-Policy,
// so a page needs no second request and an injected <style> or <script> would not run.
import { createHash } from 'node:crypto';
import { html, Html } from './html.ts';

export { html, PAGE_HEADERS } from './html.ts';

const STYLE = `
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6475; --line: #dfe3ea; --accent: #3450d6; --accent-dark: #2438a3; --danger: #b42318; --bg: #f3f5f9; }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
header.brand { display: flex; align-items: center; gap: .6rem; padding: 1.1rem 1.5rem; }
.mark { display: inline-grid; place-items: center; width: 2rem; height: 2rem; border-radius: .5rem; background: var(--accent); color: #fff; font-weight: 700; font-size: .95rem; letter-spacing: .02em; }
.brand-name { font-weight: 600; }
main { display: flex; justify-content: center; padding: 1rem 1rem 3rem; }
.card { width: 100%; max-width: 30rem; background: #fff; border: 1px solid var(--line); border-radius: .9rem; box-shadow: 0 10px 30px rgba(29, 35, 48, .08); padding: 2rem 2rem 1.6rem; }
h1 { font-size: 1.4rem; line-height: 1.3; margin: 0 0 .5rem; }
p { margin: 0 0 1rem; }
.lead { color: var(--muted); }
.app { font-weight: 600; color: var(--ink); }
label { display: block; font-weight: 600; margin: 1rem 0 .35rem; }
input[type=text], input[type=email], input[type=password] { width: 100%; font: inherit; padding: .65rem .75rem; border: 1px solid #b9c0cc; border-radius: .5rem; background: #fff; color: var(--ink); }
input:focus-visible, button:focus-visible { outline: 3px solid rgba(52, 80, 214, .35); outline-offset: 2px; border-color: var(--accent); }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; }
button { flex: 1; font: inherit; font-weight: 600; padding: .7rem 1rem; border-radius: .5rem; border: 1px solid transparent; cursor: pointer; }
button.primary { background: var(--accent); color: #fff; }
button.primary:hover { background: var(--accent-dark); }
button.secondary { background: #fff; color: var(--ink); border-color: #b9c0cc; }
button.secondary:hover { background: #f0f2f6; }
.alert { border: 1px solid #f1b8b2; background: #fdf0ef; color: var(--danger); border-radius: .5rem; padding: .7rem .9rem; margin: 0 0 1rem; }
.who { display: flex; justify-content: space-between; gap: 1rem; font-size: .9rem; color: var(--muted); border-bottom: 1px solid var(--line); padding-bottom: .8rem; margin-bottom: 1.1rem; }
.scopes { list-style: none; margin: 0 0 1rem; padding: 0; border: 1px solid var(--line); border-radius: .6rem; }
.scopes li { padding: .75rem .9rem; border-top: 1px solid var(--line); }
.scopes li:first-child { border-top: 0; }
.scope-title { display: block; font-weight: 600; }
.scope-detail { display: block; color: var(--muted); font-size: .92rem; }
.scope-name { font: .78rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--muted); }
.withheld { font-size: .92rem; color: var(--muted); }
.note { font-size: .85rem; color: var(--muted); margin: 1.2rem 0 0; }
.code { font: .85rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * The page's Content-Security-Policy: nothing may load or run but the stylesheet; forms post only
 * to this origin and — for the consent form, whose answer redirects there — the client's origin.
 */
export function pageCsp(formActionOrigins: readonly string[] = []): string {
  const formAction = ["'self'", ...formActionOrigins].join(' ');
  return `default-src 'none'; style-src '${'sha256-' + STYLE_HASH}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

export function pageDocument(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<header class="brand"><span class="mark" aria-hidden="true">PM</span><span class="brand-name">Product Management</span></header>
<main>
<div class="card">
${body}
</div>
</main>
</body>
</html>
`.text;
}
