// A page ends before its items pass PAGE_BYTES of JSON (lib/http/pagination.ts), so no answer can
// pass Lambda's 6 MB response limit, which the local gateway does not have: a page of 100 notes of
// 100 000 characters each would. The notes here hold multi-byte text, so a budget counted in
// characters instead of bytes would let the first page through whole.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '#lib/http/pagination.ts';
import { seedNotes } from './seed.ts';
import { walk } from './walk.ts';
import { callTool, mcpClient } from '../mcp/support.ts';
import { newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

const bytes = (items: unknown[]) => items.reduce<number>((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0);
/** 90 000 euro signs: 270 000 bytes of UTF-8, 90 000 characters. */
const LARGE = '€'.repeat(90_000);
const COUNT = 10;

let app: TestApp;
let ws: TestWorkspace;
/** The seeded notes as the lists give them: newest first. */
let newestFirst: Array<{ id: string }>;
beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace('Page bytes');
  const notes = await seedNotes(ws.workspaceId, COUNT, { fields: (i) => ({ name: `large ${i}`, content: `<p>${i}</p>${LARGE}` }) });
  newestFirst = [...notes].reverse();
  // More than a page's budget in bytes, well under it in characters.
  expect(COUNT * Buffer.byteLength(LARGE)).toBeGreaterThan(PAGE_BYTES);
  expect(COUNT * LARGE.length).toBeLessThan(PAGE_BYTES / 2);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

/** Each page as long as its budget allows: within PAGE_BYTES, and over it with the next page's first item. */
function expectPagesFilled(pages: unknown[][]) {
  for (const [i, page] of pages.entries()) {
    expect(bytes(page)).toBeLessThanOrEqual(PAGE_BYTES);
    if (i < pages.length - 1) expect(bytes([...page, pages[i + 1]![0]])).toBeGreaterThan(PAGE_BYTES);
  }
}

describe('a page holds at most PAGE_BYTES of items', () => {
  it('GET /v2/notes (limit 100) ends its pages at the budget; following links.next gives every note once, newest first', async () => {
    const w = await walk(app, ws.token, '/v2/notes?limit=100');
    expect(w.pages.map((p) => p.data.length)).toEqual([7, 3]);
    expectPagesFilled(w.pages.map((p) => p.data));
    expect(w.items.map((n) => n.id)).toEqual(newestFirst.map((n) => n.id));
    expect(w.items.map((n) => n.fields.content)).toEqual(newestFirst.map((_, i) => `<p>${COUNT - 1 - i}</p>${LARGE}`));
  });

  it('the MCP list_notes tool does the same with its nextCursor', async () => {
    const client: Client = await mcpClient(app, { token: ws.token });
    try {
      const pages: Array<Array<{ id: string }>> = [];
      let cursor: string | undefined;
      do {
        const result = await callTool(client, 'list_notes', { limit: 100, ...(cursor ? { cursor } : {}) });
        expect(result.isError, JSON.stringify(result).slice(0, 500)).toBeFalsy();
        pages.push(result.structuredContent.notes);
        cursor = result.structuredContent.nextCursor;
      } while (cursor !== undefined && pages.length < 20);
      expect(pages.map((p) => p.length)).toEqual([7, 3]);
      expectPagesFilled(pages);
      expect(pages.flat().map((n) => n.id)).toEqual(newestFirst.map((n) => n.id));
    } finally {
      await client.close();
    }
  });
});
