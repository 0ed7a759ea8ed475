// How the member pages write numbers, dates and names of things. Dates are UTC (a page does not
// know the reader's zone without script), and say so in their machine-readable form.
import { html, type Html } from '../pages/html.ts';

// Not Intl: constructing a NumberFormat loads ICU's locale data, a large part of a page function's
// module init (docs/performance.md, "Cold start"), and the one format each page needs is a few
// lines; the month names are also fixed here, where ICU's en-GB has changed "Sep" to "Sept".

/** 1234 → "1,234": thousands grouped with commas (the counts and scores these pages show are whole numbers). */
export function formatNumber(n: number): string {
  const [whole, fraction] = Math.abs(n).toString().split('.');
  return `${n < 0 ? '-' : ''}${whole!.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date (UTC) as "3 Mar 2025" in a <time> element carrying the instant itself. */
export function formatDate(at: string | number): Html {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return html`<span>unknown date</span>`;
  return html`<time datetime="${d.toISOString()}">${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]!} ${d.getUTCFullYear()}</time>`;
}

/** "keyResult" → "Key result", "releaseGroup" → "Release group". */
export function typeLabel(type: string): string {
  const words = type.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The plural a section heading needs: "features", "key results". */
export const typePlural = (type: string): string => `${typeLabel(type).toLowerCase()}s`;

/** A record's name, or what to call it when it has none. */
export const nameOf = (name: unknown, fallback: string): string => (typeof name === 'string' && name.trim() !== '' ? name : fallback);
