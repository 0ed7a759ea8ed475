import { describe, expect, it } from 'vitest';
import { ERROR_TABLE } from '#lib/http/errors.ts';

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
