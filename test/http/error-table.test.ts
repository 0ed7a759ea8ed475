import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from '#lib/http/errors.ts';
import { DOCUMENT_NAMES, loadDocument, type Json } from '../compat/productboard.ts';

describe("the spec's status and code table", () => {
  it('every row, titles exactly as the spec, each within 255 characters', () => {
    const spec = {
      'request.invalid': [400, 'Request schema invalid'],
      'request.malformed': [400, 'Request malformed'],
      'auth.invalid': [401, 'Invalid authentication'],
      'auth.accessDenied': [403, 'Access denied'],
      'resource.notFound': [404, 'Resource not found'],
      'route.notFound': [404, 'Route not found'],
      'request.timeout': [408, 'Request timeout'],
      'rate.limitExceeded': [429, 'Rate limit exceeded'],
      'internal.serverError': [500, 'Internal server error'],
    };
    for (const [code, [status, title]] of Object.entries(spec)) {
      expect(ERROR_TABLE[code as keyof typeof ERROR_TABLE], code).toEqual({ status, title });
    }
    // Extensions keep the spec's code format (category.specificError) and title limit.
    for (const [code, { title }] of Object.entries(ERROR_TABLE)) {
      expect(code).toMatch(/^[a-z]+(\.[a-zA-Z]+)+$/);
      expect(title.length).toBeLessThanOrEqual(255);
    }
  });
});

describe("Productboard's titles", () => {
  it("every code Productboard's documents show in an example error has a title they give it (the spec's where they give two)", () => {
    const titles = new Map<string, Set<string>>();
    const walk = (node: Json): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      if (typeof node.code === 'string' && typeof node.title === 'string') titles.set(node.code, (titles.get(node.code) ?? new Set()).add(node.title));
      Object.values(node).forEach(walk);
    };
    for (const name of DOCUMENT_NAMES) walk(loadDocument(name));
    const ours = Object.entries(ERROR_TABLE).filter(([code]) => titles.has(code));
    // The codes both use, so a document that stopped showing examples cannot make this pass.
    expect(ours.map(([code]) => code).sort()).toEqual([
      'auth.accessDenied',
      'auth.invalid',
      'conflict.uniqueViolation',
      'internal.serverError',
      'rate.limitExceeded',
      'request.invalid',
      'request.malformed',
      'request.timeout',
      'resource.notFound',
      'route.notFound',
    ]);
    for (const [code, { title }] of ours) expect([...titles.get(code)!], code).toContain(title);
  });
});
