// Note content and descriptions are HTML that members (and integrations) wrote. The pages show
// them through an allow-list sanitiser (sanitize-html): text structure and plain links survive;
// scripts, event handlers, styles, images, frames, forms and any URL scheme but http, https and
// mailto do not. Excerpts are text only. The CSP (./layout.ts) would stop a script that got
// through, but nothing is meant to get through.
import sanitizeHtml from 'sanitize-html';
import { Html } from '../pages/html.ts';

const RICH: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'ins',
    'sub',
    'sup',
    'mark',
    'blockquote',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'h3',
    'h4',
    'a',
    'hr',
    'span',
    'div',
  ],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // The page has its own h1 and h2: the content's headings sit under them.
    h1: 'h3',
    h2: 'h3',
    h3: 'h3',
    h4: 'h4',
    h5: 'h4',
    h6: 'h4',
    // A member's link leads off this site: no referrer, no window handle, no endorsement.
    a: (tagName, attribs) => ({ tagName, attribs: { ...(attribs.href ? { href: attribs.href } : {}), rel: 'noopener noreferrer nofollow ugc' } }),
  },
};

/** Member-written HTML, sanitised for the page. */
export const richText = (value: string): Html => new Html(sanitizeHtml(value, RICH));

const TEXT_ONLY: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };
/** Where one block of text ends and the next begins: a space, so words do not run together. */
const BLOCK_END = /<(?:br|hr)\b[^>]*>|<\/(?:p|li|div|h[1-6]|blockquote|pre|tr|td|th)>/gi;
/** sanitize-html escapes exactly these in text. */
const ESCAPED: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&amp;': '&' };

/** The text of member-written HTML, white space collapsed, at most `max` characters (an ellipsis marks a cut). */
export function plainText(value: string, max = Number.POSITIVE_INFINITY): string {
  const text = sanitizeHtml(value.replace(BLOCK_END, '$& '), TEXT_ONLY)
    .replace(/&(?:lt|gt|quot|amp);/g, (e) => ESCAPED[e]!)
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
