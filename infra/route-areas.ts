// Which nested stack a route's function and methods live in. CloudFormation allows 500 resources,
// 200 outputs, 200 parameters and 1 MB per template, and every route costs about five resources,
// so the routes are split by area of the API, each area a nested stack of its own
// (infra/route-area.ts). The rule is the path: a row belongs to the area with the longest prefix
// its path starts with (whole segments), and a path no prefix names belongs to the last area. A
// new row therefore lands in its area without anyone placing it; a new area is one line here.
import { allowsCors, PREFLIGHT_PATH, type Route } from '#lib/routes.ts';

export interface Area {
  /** Construct id of the area's nested stack. */
  id: string;
  /** Path prefixes (whole segments) of its routes. */
  prefixes: readonly string[];
  summary: string;
}

export const AREAS = [
  { id: 'Entities', prefixes: ['/v2/entities'], summary: 'the product hierarchy: entities, their relationships and customer scores' },
  { id: 'Notes', prefixes: ['/v2/notes'], summary: 'notes' },
  {
    id: 'NoteRelationships',
    prefixes: ['/v2/notes/{id}/relationships', '/v2/notes/{id}/comments'],
    summary: "a note's links with their customer importance, its customer and its comments",
  },
  {
    id: 'Fields',
    prefixes: ['/v2/entities/fields', '/v2/entities/configurations', '/v2/notes/configurations'],
    summary: 'the fields of entities and notes: their configurations and the values of tags and select fields',
  },
  { id: 'Workspace', prefixes: ['/v2/members', '/v2/teams'], summary: 'members and teams' },
  { id: 'Webhooks', prefixes: ['/v2/webhooks'], summary: 'webhook subscriptions' },
  { id: 'Applications', prefixes: ['/oauth2/applications'], summary: 'OAuth applications and their keys' },
  {
    id: 'Auth',
    prefixes: ['/oauth', '/oauth2', '/.well-known/oauth-authorization-server'],
    summary: 'tokens, client registration, discovery and the authorization code flow',
  },
  { id: 'Pages', prefixes: ['/entities', '/notes', '/members', '/teams', '/sign-in', '/sign-out', '/'], summary: 'the member pages and their sign-in' },
  // Last: every path no prefix above names, and the CORS preflight (it serves every CORS path).
  { id: 'General', prefixes: [], summary: 'the MCP server, discovery, the OpenAPI document and the CORS preflight' },
] as const satisfies readonly Area[];

const startsWithSegments = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The area a path belongs to: the longest matching prefix, else the last area. */
export function areaOfPath(path: string): Area {
  let best: { area: Area; length: number } | undefined;
  for (const area of AREAS as readonly Area[]) {
    for (const prefix of area.prefixes) {
      if (startsWithSegments(path, prefix) && (!best || prefix.length > best.length)) best = { area, length: prefix.length };
    }
  }
  return best?.area ?? AREAS[AREAS.length - 1]!;
}

/** The area a row's function lives in: its path's (the preflight, on every CORS path, in the last area). */
export const areaOf = (route: Route): Area => (route.path === PREFLIGHT_PATH ? AREAS[AREAS.length - 1]! : areaOfPath(route.path));

/**
 * The paths a preflight answers: each path of a CORS row, in table order. lib/routes.ts's
 * corsPaths() reads the module's own table; the stack is built from the table it is given.
 */
export const corsPathsOf = (routes: readonly Route[]): string[] => [...new Set(routes.filter(allowsCors).map((route) => route.path))];
