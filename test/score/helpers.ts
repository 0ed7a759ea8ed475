// Helpers for the score tests: build hierarchy and notes through the HTTP API.
import { expect } from 'vitest';
import { call, type TestApp } from '../support/app.ts';

export function client(app: TestApp, token: string) {
  const req = async (method: string, path: string, body?: unknown) => call(app, method, `/v2${path}`, { token, ...(body !== undefined ? { body } : {}) });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await req(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res;
  };
  return {
    req,
    ok,
    entity: async (type: string, parentId?: string, fields: Record<string, unknown> = {}) =>
      (
        await ok('POST', '/entities', {
          data: {
            type,
            fields: { name: `${type} ${Math.random().toString(36).slice(2, 8)}`, ...fields },
            ...(parentId ? { relationships: [{ type: 'parent', target: { id: parentId } }] } : {}),
          },
        })
      ).json.data.id as string,
    note: async (opts: { customer?: string; links?: Array<[string, string?]> } = {}) => {
      const relationships: unknown[] = [];
      if (opts.customer) relationships.push({ type: 'customer', target: { id: opts.customer } });
      for (const [id, importance] of opts.links ?? []) relationships.push({ type: 'link', target: { id }, ...(importance ? { importance } : {}) });
      return (await ok('POST', '/notes', { data: { type: 'textNote', fields: { name: 'Feedback' }, relationships } })).json.data.id as string;
    },
    score: async (id: string) => {
      const res = await req('GET', `/entities/${id}/score`);
      expect(res.status, res.text).toBe(200);
      return res.json.data.fields.score as number;
    },
  };
}
