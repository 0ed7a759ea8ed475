import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '#lib/http/openapi.ts';
import { ROUTES } from '#lib/routes.ts';

describe('OpenAPI document (generated from the route table)', () => {
  const doc = buildOpenApi() as { paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };

  it('has exactly one operation per route, with its scope', () => {
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(ops.map((o) => o.operationId).sort()).toEqual(ROUTES.map((r) => r.operationId).sort());
    expect(doc.paths['/v2/entities/{id}/score']!.get!.security).toEqual([{ BearerAuth: [] }, { OAuth2: ['entities:read'] }]);
    expect(doc.paths['/oauth2/token']!.post!.security).toEqual([]);
  });

  it('docs/openapi.json is up to date (npm run openapi)', async () => {
    const committed = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(doc);
  });
});
