// HTML written safely, and the headers every page carries: what the authorization pages
// (./layout.ts) and the member pages (../member-pages/layout.ts) share, without either's stylesheet.
/** Escapes text for HTML element content and double-quoted attribute values. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Tagged template: every interpolated value is escaped unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts.map((v) => (v instanceof Html ? v.text : v === undefined || v === null || v === false ? '' : escapeHtml(String(v)))).join('');
    out += strings[i + 1]!;
  });
  return new Html(out);
}

/** Headers every page carries, whatever its status. */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  // The pages hold a session (Secure cookies): a browser that has seen them over HTTPS never asks
  // for them over plain HTTP for a year (RFC 6797), where a first request could be intercepted. It
  // heeds the header only over HTTPS (deployed); not includeSubDomains: the domain's other hosts
  // are not ours to bind.
  'Strict-Transport-Security': 'max-age=31536000',
};
