// A client that follows links.next to the end, as the spec's pagination rules describe.
import { expect } from 'vitest';
import { call, type TestApp } from '../support/app.ts';

interface Walk {
  pages: Array<{ data: any[]; links: any }>;
  items: any[];
  /** The links.next URLs followed, in order. */
  nexts: string[];
}

export async function walk(
  app: TestApp,
  token: string,
  firstPath: string,
  options: { method?: 'GET' | 'POST'; body?: unknown; between?: (pageIndex: number) => Promise<void>; maxPages?: number } = {},
): Promise<Walk> {
  const out: Walk = { pages: [], items: [], nexts: [] };
  let path: string | undefined = firstPath;
  while (path !== undefined) {
    const res = await call(app, options.method ?? 'GET', path, { token, ...(options.body !== undefined ? { body: options.body } : {}) });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['data', 'links']);
    out.pages.push(res.json);
    out.items.push(...res.json.data);
    const next: string | undefined = res.json.links.next;
    if (next === undefined) {
      expect(res.json.links).toEqual({});
      break;
    }
    // Absolute, under {base_url}, carrying a pageCursor; and never pointing at an empty page.
    expect(next.startsWith(`${app.baseUrl}/`)).toBe(true);
    expect(new URL(next).searchParams.getAll('pageCursor')).toHaveLength(1);
    expect(res.json.data.length).toBeGreaterThan(0);
    out.nexts.push(next);
    if (options.between) await options.between(out.pages.length - 1);
    path = next.slice(app.url.length);
    if (out.pages.length > (options.maxPages ?? 1000)) throw new Error('walk does not end');
  }
  return out;
}

export const ids = (items: Array<{ id: string }>) => items.map((i) => i.id);
