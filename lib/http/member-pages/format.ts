// How the member pages write numbers, dates and names of things. Dates are UTC (a page does not
// know the reader's zone without script), and say so in their machine-readable form.
import { html, type Html } from '../pages/html.ts';

const NUMBER = new Intl.NumberFormat('en-US');
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** 1234 → "1,234". */
export const formatNumber = (n: number): string => NUMBER.format(n);

/** A date as "3 Mar 2025" in a <time> element carrying the instant itself. */
export function formatDate(at: string | number): Html {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return html`<span>unknown date</span>`;
  return html`<time datetime="${d.toISOString()}">${DATE.format(d)}</time>`;
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
