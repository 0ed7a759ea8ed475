import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '#lib/http/openapi.ts';
import { PREFLIGHT_PATH, ROUTES } from '#lib/routes.ts';

describe('OpenAPI document (generated from the route table)', () => {
  const doc = buildOpenApi() as { paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };

  it('has exactly one operation per route (the CORS preflight aside), with its scope', () => {
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(ops.map((o) => o.operationId).sort()).toEqual(ROUTES.filter((r) => r.path !== PREFLIGHT_PATH).map((r) => r.operationId).sort());
    expect(doc.paths['/v2/entities/{id}/score']!.get!.security).toEqual([{ BearerAuth: [] }, { OAuth2: ['entities:read'] }]);
    expect(doc.paths['/oauth2/token']!.post!.security).toEqual([]);
  });

  it('the OAuth2 scheme points at the authorization code flow\'s endpoints; its forms are documented from their zod schemas', () => {
    const full = buildOpenApi() as any;
    expect(full.components.securitySchemes.OAuth2.flows.authorizationCode).toMatchObject({ authorizationUrl: '/oauth/authorize', tokenUrl: '/oauth/token', refreshUrl: '/oauth/token' });
    expect(full.components.securitySchemes.OAuth2.flows.authorizationCode.scopes['write:entities']).toBe('Create and modify entities');
    const token = full.paths['/oauth/token'].post;
    const grants = token.requestBody.content['application/x-www-form-urlencoded'].schema.oneOf.map((g: any) => g.properties.grant_type.const);
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
    expect(Object.keys(token.responses)).toEqual(['200', '400', '401']);
    expect(full.paths['/oauth/authorize'].get.responses['200'].content).toHaveProperty('text/html');
    expect(full.paths['/oauth/authorize'].get.parameters.map((p: any) => p.name)).toEqual(['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource']);
  });

  it('docs/openapi.json is up to date (npm run openapi)', async () => {
    const committed = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(doc);
  });
});
