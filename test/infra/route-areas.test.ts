// The rule that places a route in a nested stack (infra/route-areas.ts): the longest prefix, by
// whole segments, among the areas' prefixes; else the last area, which also takes the preflight.
import { describe, expect, it } from 'vitest';
import { corsPreflight, ROUTES } from '#lib/routes.ts';
import { AREAS, areaOf, areaOfPath } from '../../infra/route-areas.ts';

describe('the area of a route', () => {
  it.each([
    ['/v2/entities', 'Entities'],
    ['/v2/entities/{id}/relationships/{type}/{targetId}', 'Entities'],
    ['/v2/entities/fields/{id}/values', 'Fields'],
    ['/v2/entities/configurations/{type}', 'Fields'],
    ['/v2/notes/configurations', 'Fields'],
    ['/v2/entities/{id}/relationships/parent', 'Entities'],
    ['/v2/notes/{id}/comments', 'NoteRelationships'],
    ['/v2/notes/{id}/relationships/link/{entityId}', 'NoteRelationships'],
    ['/v2/notes/{id}', 'Notes'],
    ['/v2/members/search', 'Workspace'],
    ['/v2/teams/{id}/members', 'Workspace'],
    ['/v2/webhooks/{webhookId}', 'Webhooks'],
    ['/oauth/token', 'Auth'],
    ['/oauth2/applications/{clientId}/keys', 'Applications'],
    ['/oauth2/token', 'Auth'],
    ['/.well-known/oauth-authorization-server', 'Auth'],
    ['/.well-known/oauth-protected-resource/mcp', 'General'],
    ['/mcp', 'General'],
    ['/v2/openapi.json', 'General'],
    ['/entities/{id}', 'Pages'],
    ['/', 'Pages'],
    ['/sign-in', 'Pages'],
    // Whole segments: a prefix of a segment is not a prefix.
    ['/v2/entitiesx', 'General'],
    ['/oauthx/token', 'General'],
  ])('%s → %s', (path, area) => {
    expect(areaOfPath(path).id).toBe(area);
  });

  it('the CORS preflight (on every CORS path) goes to the last area, which names no prefix; no prefix is listed twice', () => {
    expect(AREAS.at(-1)!.prefixes).toEqual([]);
    expect(areaOf(corsPreflight).id).toBe(AREAS.at(-1)!.id);
    const prefixes = AREAS.flatMap((a) => a.prefixes);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('every area has rows today, so each is a nested stack of its own', () => {
    expect(AREAS.map((a) => ROUTES.filter((r) => areaOf(r).id === a.id).length).every((n) => n > 0)).toBe(true);
  });
});
