// THE route table. The local gateway dispatches from it, the CDK stack creates one function per
// row (with grants derived from `table`, `signs` and `secret`), and the OpenAPI document is generated from it
// together with the declaration each handler module passes to api() (lib/http/operation.ts). It
// names handler modules by path and imports no schema: every handler imports it. Each row is its
// own constant, which the handler passes to api(), and nothing here is built at import, so a
// function's bundle keeps its own row and not the whole table (infra/bundle-sizes.ts).
import type { Scope } from './domain/scopes.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * Who may call a route: a scope, an admin member's API token, any live bearer token of the route's
 * resource (`bearer`: the MCP endpoint, whose tools each require their REST route's scope), or
 * anyone (the token endpoint).
 */
export type RouteAuth = Scope | 'admin' | 'bearer' | 'none';

/** The protected resources (RFC 8707 resource indicators): the REST API at {base_url}, or the MCP server at {app_url}/mcp. */
export type Resource = 'api' | 'mcp';

/**
 * Whether the route words its own refusals rather than in the API's envelope: a page (its error
 * page), a token or revocation endpoint's form and a route with `oauthRefusals` (RFC 6749 and
 * RFC 7591 error bodies). Whatever refuses a request before its function runs must leave such a
 * route's refusals to it.
 */
export const refusesInItsOwnTerms = (route: Pick<Route, 'response' | 'body' | 'oauthRefusals'>): boolean =>
  route.response === 'html' || route.body === 'form' || route.oauthRefusals === true;

export interface Route {
  operationId: string;
  method: HttpMethod;
  /** Path from the host root in API Gateway template syntax; `/v2/...` lives under {base_url}, `/oauth2/...` under {app_url}. */
  path: string;
  /** Handler module, relative to the project root; it exports `handler`. */
  handler: string;
  auth: RouteAuth;
  /** Request body the route takes: JSON (parsed by the pipeline) or a form (parsed by the handler). */
  body?: 'json' | 'form';
  /** What it answers: JSON (the default), or server-rendered HTML pages with the page security headers. */
  response?: 'json' | 'html';
  /**
   * Browser clients may call it cross-origin (CORS); every /v2/ route may, whatever this says.
   * `'public'`: from any origin, which may read the answer (`*`): public documents and open
   * registration, which a browser-based client reaches before it has registered an origin.
   */
  cors?: boolean | 'public';
  /** Request headers a browser may send here beyond those every CORS route allows (lib/http/cors.ts). */
  corsHeaders?: readonly string[];
  /**
   * A request whose Origin is present but names no origin, or whose token's application did not
   * register it, is refused (403) before anything is done for it: the MCP Streamable HTTP
   * transport's rule against DNS rebinding (lib/http/middleware/cors.ts).
   */
  refusesForeignOrigins?: true;
  /** Table access the function needs: least privilege in the stack ('none': no table, key or secret either). */
  table: 'read' | 'write' | 'none';
  /**
   * Mints tokens: only such functions are told the signing key's id and may use it (KMS Sign); the
   * others verify with the public keys in their environment. The bundle test holds this to which
   * functions' code reaches the KMS client.
   */
  signs?: boolean;
  /**
   * Reads the service secret (lib/auth/service-secret.ts): it seals or opens pagination cursors, CSRF
   * tokens or webhook secrets. Only such functions are told the secret's id and may read it; the
   * bundle test holds this to what each function's code reaches.
   */
  secret?: true;
  /**
   * The item the path's `{id}` names, which the handler reads first: the authentication reads it in
   * the same BatchGetItem as the credential (one round trip for the whole read).
   */
  prefetch?: 'entity' | 'note';
  /** The resource whose tokens it accepts (a token's audience); the REST API when absent. */
  resource?: Resource;
  /**
   * A JSON route whose refusals are OAuth errors, `{error, error_description}` (RFC 7591 §3.2.2),
   * also those the pipeline gives before its handler runs (lib/http/middleware/errors-as-http.ts).
   * Form routes always answer so (lib/http/middleware/body.ts).
   */
  oauthRefusals?: true;
  /**
   * The row only refuses its method, with 405 (the MCP endpoint's GET and DELETE, which its
   * transport lets a server refuse): its path's Allow header leaves the method out.
   */
  refusesMethod?: true;
  summary: string;
}

/** The path of the CORS preflight row: it answers OPTIONS on every path that has a CORS route. */
export const PREFLIGHT_PATH = '*';

// Entities
export const getCustomerScore: Route = {
  operationId: 'getCustomerScore',
  method: 'GET',
  path: '/v2/entities/{id}/score',
  handler: 'functions/entities/get-score.ts',
  auth: 'entities:read',
  table: 'read',
  prefetch: 'entity',
  summary: 'Customer score of a product hierarchy entity (beta)',
};
export const getCustomerDemand: Route = {
  operationId: 'getCustomerDemand',
  method: 'GET',
  path: '/v2/entities/{id}/demand',
  handler: 'functions/entities/get-demand.ts',
  auth: 'entities:read',
  table: 'read',
  prefetch: 'entity',
  summary: 'Customer demand behind an initiative, objective, key result or release (extension)',
};
export const createEntity: Route = {
  operationId: 'createEntity',
  method: 'POST',
  path: '/v2/entities',
  handler: 'functions/entities/create.ts',
  auth: 'write:entities',
  body: 'json',
  table: 'write',
  summary: 'Create an entity',
};
export const listEntities: Route = {
  operationId: 'listEntities',
  method: 'GET',
  path: '/v2/entities',
  handler: 'functions/entities/list.ts',
  auth: 'entities:read',
  table: 'read',
  secret: true,
  summary: 'List entities',
};
export const searchEntities: Route = {
  operationId: 'searchEntities',
  method: 'POST',
  path: '/v2/entities/search',
  handler: 'functions/entities/search.ts',
  auth: 'entities:read',
  body: 'json',
  table: 'read',
  secret: true,
  summary: 'Search entities',
};
export const listEntityConfigurations: Route = {
  operationId: 'listEntityConfigurations',
  method: 'GET',
  path: '/v2/entities/configurations',
  handler: 'functions/entities/list-configurations.ts',
  auth: 'entities:read',
  table: 'read',
  secret: true,
  summary: 'List entity configurations',
};
export const getEntityConfiguration: Route = {
  operationId: 'getEntityConfiguration',
  method: 'GET',
  path: '/v2/entities/configurations/{type}',
  handler: 'functions/entities/get-configuration.ts',
  auth: 'entities:read',
  table: 'read',
  secret: true,
  summary: 'Retrieve the configuration of an entity type',
};
export const getEntity: Route = {
  operationId: 'getEntity',
  method: 'GET',
  path: '/v2/entities/{id}',
  handler: 'functions/entities/get.ts',
  auth: 'entities:read',
  table: 'read',
  secret: true,
  prefetch: 'entity',
  summary: 'Retrieve an entity',
};
export const updateEntity: Route = {
  operationId: 'updateEntity',
  method: 'PATCH',
  path: '/v2/entities/{id}',
  handler: 'functions/entities/update.ts',
  auth: 'write:entities',
  body: 'json',
  table: 'write',
  summary: 'Update an entity',
};
export const deleteEntity: Route = {
  operationId: 'deleteEntity',
  method: 'DELETE',
  path: '/v2/entities/{id}',
  handler: 'functions/entities/delete.ts',
  auth: 'entities:delete',
  table: 'write',
  summary: 'Delete an entity and its subtree',
};
export const listEntityRelationships: Route = {
  operationId: 'listEntityRelationships',
  method: 'GET',
  path: '/v2/entities/{id}/relationships',
  handler: 'functions/entities/list-relationships.ts',
  auth: 'entities:read',
  table: 'read',
  secret: true,
  summary: 'List relationships of an entity',
};
export const setEntityParent: Route = {
  operationId: 'setEntityParent',
  method: 'PUT',
  path: '/v2/entities/{id}/relationships/parent',
  handler: 'functions/entities/set-parent.ts',
  auth: 'write:entities',
  body: 'json',
  table: 'write',
  summary: 'Set the parent of an entity (moves its subtree)',
};
export const createEntityRelationship: Route = {
  operationId: 'createEntityRelationship',
  method: 'POST',
  path: '/v2/entities/{id}/relationships',
  handler: 'functions/entities/create-relationship.ts',
  auth: 'write:entities',
  body: 'json',
  table: 'write',
  summary: 'Create a relationship of an entity (link, isBlockedBy, isBlocking; parent and child move)',
};
export const deleteEntityRelationship: Route = {
  operationId: 'deleteEntityRelationship',
  method: 'DELETE',
  path: '/v2/entities/{id}/relationships/{type}/{targetId}',
  handler: 'functions/entities/delete-relationship.ts',
  auth: 'write:entities',
  table: 'write',
  summary: 'Delete a relationship of an entity',
};

// The values of the tags, the status field and custom select fields
export const listEntityFieldValues: Route = {
  operationId: 'listEntityFieldValues',
  method: 'GET',
  path: '/v2/entities/fields/{id}/values',
  handler: 'functions/entities/list-field-values.ts',
  auth: 'entities:read',
  table: 'read',
  secret: true,
  summary: 'List the values of a field (tags, status, a custom select field)',
};
export const createEntityFieldValue: Route = {
  operationId: 'createEntityFieldValue',
  method: 'POST',
  path: '/v2/entities/fields/{id}/values',
  handler: 'functions/entities/create-field-value.ts',
  auth: 'fields:write',
  body: 'json',
  table: 'write',
  summary: 'Create a value of a tag or custom select field',
};
export const updateEntityFieldValue: Route = {
  operationId: 'updateEntityFieldValue',
  method: 'PATCH',
  path: '/v2/entities/fields/{id}/values/{valueId}',
  handler: 'functions/entities/update-field-value.ts',
  auth: 'fields:write',
  body: 'json',
  table: 'write',
  summary: 'Rename or recolor a value (every record holding it follows)',
};
export const deleteEntityFieldValue: Route = {
  operationId: 'deleteEntityFieldValue',
  method: 'DELETE',
  path: '/v2/entities/fields/{id}/values/{valueId}',
  handler: 'functions/entities/delete-field-value.ts',
  auth: 'fields:write',
  table: 'write',
  summary: 'Delete a value (refused while an entity holds it, unless cleared with force or replaced)',
};

// Notes and customer importance
export const createNote: Route = {
  operationId: 'createNote',
  method: 'POST',
  path: '/v2/notes',
  handler: 'functions/notes/create.ts',
  auth: 'notes:write',
  body: 'json',
  table: 'write',
  summary: 'Create a note',
};
export const listNotes: Route = {
  operationId: 'listNotes',
  method: 'GET',
  path: '/v2/notes',
  handler: 'functions/notes/list.ts',
  auth: 'notes:read',
  table: 'read',
  secret: true,
  summary: 'List notes',
};
export const searchNotes: Route = {
  operationId: 'searchNotes',
  method: 'POST',
  path: '/v2/notes/search',
  handler: 'functions/notes/search.ts',
  auth: 'notes:read',
  body: 'json',
  table: 'read',
  secret: true,
  summary: 'Search notes',
};
export const listNoteConfigurations: Route = {
  operationId: 'listNoteConfigurations',
  method: 'GET',
  path: '/v2/notes/configurations',
  handler: 'functions/notes/list-configurations.ts',
  auth: 'notes:read',
  table: 'read',
  secret: true,
  summary: 'List note configurations',
};
export const getNoteConfiguration: Route = {
  operationId: 'getNoteConfiguration',
  method: 'GET',
  path: '/v2/notes/configurations/{type}',
  handler: 'functions/notes/get-configuration.ts',
  auth: 'notes:read',
  table: 'read',
  secret: true,
  summary: 'Retrieve the configuration of a note type',
};
export const getNote: Route = {
  operationId: 'getNote',
  method: 'GET',
  path: '/v2/notes/{id}',
  handler: 'functions/notes/get.ts',
  auth: 'notes:read',
  table: 'read',
  secret: true,
  prefetch: 'note',
  summary: 'Retrieve a note',
};
export const updateNote: Route = {
  operationId: 'updateNote',
  method: 'PATCH',
  path: '/v2/notes/{id}',
  handler: 'functions/notes/update.ts',
  auth: 'notes:write',
  body: 'json',
  table: 'write',
  prefetch: 'note',
  summary: 'Update a note',
};
export const deleteNote: Route = {
  operationId: 'deleteNote',
  method: 'DELETE',
  path: '/v2/notes/{id}',
  handler: 'functions/notes/delete.ts',
  auth: 'notes:delete',
  table: 'write',
  summary: 'Delete a note',
};
export const listNoteRelationships: Route = {
  operationId: 'listNoteRelationships',
  method: 'GET',
  path: '/v2/notes/{id}/relationships',
  handler: 'functions/notes/list-relationships.ts',
  auth: 'notes:read',
  table: 'read',
  secret: true,
  summary: 'List relationships of a note',
};
export const createNoteRelationship: Route = {
  operationId: 'createNoteRelationship',
  method: 'POST',
  path: '/v2/notes/{id}/relationships',
  handler: 'functions/notes/create-relationship.ts',
  auth: 'notes:write',
  body: 'json',
  table: 'write',
  prefetch: 'note',
  summary: 'Link a note to an entity or set its customer',
};
export const setNoteLink: Route = {
  operationId: 'setNoteLink',
  method: 'PUT',
  path: '/v2/notes/{id}/relationships/link/{entityId}',
  handler: 'functions/notes/set-link.ts',
  auth: 'notes:write',
  body: 'json',
  table: 'write',
  prefetch: 'note',
  summary: 'Create or re-rate a link from a note to an entity',
};
export const setNoteCustomer: Route = {
  operationId: 'setNoteCustomer',
  method: 'PUT',
  path: '/v2/notes/{id}/relationships/customer',
  handler: 'functions/notes/set-customer.ts',
  auth: 'notes:write',
  body: 'json',
  table: 'write',
  prefetch: 'note',
  summary: "Set a note's customer",
};
export const createNoteComment: Route = {
  operationId: 'createNoteComment',
  method: 'POST',
  path: '/v2/notes/{id}/comments',
  handler: 'functions/notes/create-comment.ts',
  auth: 'notes:write',
  body: 'json',
  table: 'write',
  summary: 'Comment on a note',
};
export const listNoteComments: Route = {
  operationId: 'listNoteComments',
  method: 'GET',
  path: '/v2/notes/{id}/comments',
  handler: 'functions/notes/list-comments.ts',
  auth: 'notes:read',
  table: 'read',
  secret: true,
  prefetch: 'note',
  summary: "A note's comments, oldest first (extension)",
};
export const deleteNoteRelationship: Route = {
  operationId: 'deleteNoteRelationship',
  method: 'DELETE',
  path: '/v2/notes/{id}/relationships/{targetType}/{targetId}',
  handler: 'functions/notes/delete-relationship.ts',
  auth: 'notes:write',
  table: 'write',
  summary: "Remove a note's link or customer",
};

// Members (read-only)
export const listMembers: Route = {
  operationId: 'listMembers',
  method: 'GET',
  path: '/v2/members',
  handler: 'functions/members/list.ts',
  auth: 'members:read',
  table: 'read',
  secret: true,
  summary: 'List members',
};
export const getMember: Route = {
  operationId: 'getMember',
  method: 'GET',
  path: '/v2/members/{id}',
  handler: 'functions/members/get.ts',
  auth: 'members:read',
  table: 'read',
  summary: 'Retrieve a member',
};
export const searchMembers: Route = {
  operationId: 'searchMembers',
  method: 'POST',
  path: '/v2/members/search',
  handler: 'functions/members/search.ts',
  auth: 'members:read',
  body: 'json',
  table: 'read',
  secret: true,
  summary: 'Search members (e-mails and the text search need members:pii:read)',
};

// Teams and their members
export const listTeams: Route = {
  operationId: 'listTeams',
  method: 'GET',
  path: '/v2/teams',
  handler: 'functions/teams/list.ts',
  auth: 'teams:read',
  table: 'read',
  secret: true,
  summary: 'List teams (newest first)',
};
export const createTeam: Route = {
  operationId: 'createTeam',
  method: 'POST',
  path: '/v2/teams',
  handler: 'functions/teams/create.ts',
  auth: 'teams:write',
  body: 'json',
  table: 'write',
  summary: 'Create a team',
};
export const searchTeams: Route = {
  operationId: 'searchTeams',
  method: 'POST',
  path: '/v2/teams/search',
  handler: 'functions/teams/search.ts',
  auth: 'teams:read',
  body: 'json',
  table: 'read',
  secret: true,
  summary: 'Search teams',
};
export const getTeam: Route = {
  operationId: 'getTeam',
  method: 'GET',
  path: '/v2/teams/{id}',
  handler: 'functions/teams/get.ts',
  auth: 'teams:read',
  table: 'read',
  summary: 'Retrieve a team',
};
export const updateTeam: Route = {
  operationId: 'updateTeam',
  method: 'PATCH',
  path: '/v2/teams/{id}',
  handler: 'functions/teams/update.ts',
  auth: 'teams:write',
  body: 'json',
  table: 'write',
  summary: "Update a team's fields and members",
};
export const deleteTeam: Route = {
  operationId: 'deleteTeam',
  method: 'DELETE',
  path: '/v2/teams/{id}',
  handler: 'functions/teams/delete.ts',
  auth: 'teams:delete',
  table: 'write',
  summary: 'Delete a team and its memberships',
};
export const listTeamMembers: Route = {
  operationId: 'listTeamMembers',
  method: 'GET',
  path: '/v2/teams/{id}/members',
  handler: 'functions/teams/list-members.ts',
  auth: 'teams:read',
  table: 'read',
  secret: true,
  summary: "A team's members (newest membership first)",
};

// Webhook subscriptions (docs/events.md)
export const createWebhook: Route = {
  operationId: 'createWebhook',
  method: 'POST',
  path: '/v2/webhooks',
  handler: 'functions/webhooks/create.ts',
  auth: 'webhooks:write',
  body: 'json',
  table: 'write',
  secret: true,
  summary: 'Create a webhook subscription (its signing secret is shown once)',
};
export const listWebhooks: Route = {
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/v2/webhooks',
  handler: 'functions/webhooks/list.ts',
  auth: 'webhooks:read',
  table: 'read',
  secret: true,
  summary: 'List webhook subscriptions',
};
export const getWebhook: Route = {
  operationId: 'getWebhook',
  method: 'GET',
  path: '/v2/webhooks/{webhookId}',
  handler: 'functions/webhooks/get.ts',
  auth: 'webhooks:read',
  table: 'read',
  summary: 'Retrieve a webhook subscription',
};
export const deleteWebhook: Route = {
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/v2/webhooks/{webhookId}',
  handler: 'functions/webhooks/delete.ts',
  auth: 'webhooks:delete',
  table: 'write',
  summary: 'Delete a webhook subscription',
};

// Server-to-server OAuth ({app_url})
export const issueToken: Route = {
  operationId: 'issueToken',
  method: 'POST',
  path: '/oauth2/token',
  handler: 'functions/oauth/token.ts',
  auth: 'none',
  body: 'form',
  table: 'write',
  signs: true,
  summary: 'JWT bearer grant (RFC 7523): trade a signed assertion for a 300-second access token',
};
export const createApplication: Route = {
  operationId: 'createApplication',
  method: 'POST',
  path: '/oauth2/applications',
  handler: 'functions/oauth/create-application.ts',
  auth: 'admin',
  body: 'json',
  table: 'write',
  summary: 'Register a server-to-server application',
};
export const listApplications: Route = {
  operationId: 'listApplications',
  method: 'GET',
  path: '/oauth2/applications',
  handler: 'functions/oauth/list-applications.ts',
  auth: 'admin',
  table: 'read',
  summary: 'List applications',
};
export const getApplication: Route = {
  operationId: 'getApplication',
  method: 'GET',
  path: '/oauth2/applications/{clientId}',
  handler: 'functions/oauth/get-application.ts',
  auth: 'admin',
  table: 'read',
  summary: 'Retrieve an application',
};
export const deleteApplication: Route = {
  operationId: 'deleteApplication',
  method: 'DELETE',
  path: '/oauth2/applications/{clientId}',
  handler: 'functions/oauth/delete-application.ts',
  auth: 'admin',
  table: 'write',
  summary: 'Delete an application and revoke its tokens',
};
export const addApplicationKey: Route = {
  operationId: 'addApplicationKey',
  method: 'POST',
  path: '/oauth2/applications/{clientId}/keys',
  handler: 'functions/oauth/add-key.ts',
  auth: 'admin',
  body: 'json',
  table: 'write',
  summary: 'Upload an RSA public key',
};
export const deleteApplicationKey: Route = {
  operationId: 'deleteApplicationKey',
  method: 'DELETE',
  path: '/oauth2/applications/{clientId}/keys/{keyId}',
  handler: 'functions/oauth/delete-key.ts',
  auth: 'admin',
  table: 'write',
  summary: 'Remove a public key',
};

// This API's OpenAPI document (docs/openapi.json), public
export const getOpenApiDocument: Route = {
  operationId: 'getOpenApiDocument',
  method: 'GET',
  path: '/v2/openapi.json',
  handler: 'functions/openapi/get.ts',
  auth: 'none',
  table: 'none',
  summary: 'The OpenAPI 3.1 document of this API',
  // A public document, read by tools that run in a browser (a documentation viewer, a code generator).
  cors: 'public',
};
// Authorization code flow ({app_url}; docs/oauth.md)
export const getAuthorizationServerMetadata: Route = {
  operationId: 'getAuthorizationServerMetadata',
  method: 'GET',
  path: '/.well-known/oauth-authorization-server',
  handler: 'functions/authorization/metadata.ts',
  auth: 'none',
  cors: 'public',
  // MCP clients send their protocol version with discovery requests too.
  corsHeaders: ['Mcp-Protocol-Version'],
  table: 'read',
  summary: 'Authorization server metadata (RFC 8414)',
};
export const authorize: Route = {
  operationId: 'authorize',
  method: 'GET',
  path: '/oauth/authorize',
  handler: 'functions/authorization/authorize.ts',
  auth: 'none',
  response: 'html',
  table: 'read',
  secret: true,
  summary: 'Authorization endpoint (RFC 6749 §4.1.1): the sign-in page, then the consent page',
};
export const signIn: Route = {
  operationId: 'signIn',
  method: 'POST',
  path: '/oauth/sign-in',
  handler: 'functions/authorization/sign-in.ts',
  auth: 'none',
  body: 'form',
  response: 'html',
  table: 'write',
  secret: true,
  summary: "The sign-in page's form: a member's e-mail and password",
};
export const consent: Route = {
  operationId: 'consent',
  method: 'POST',
  path: '/oauth/consent',
  handler: 'functions/authorization/consent.ts',
  auth: 'none',
  body: 'form',
  response: 'html',
  table: 'write',
  secret: true,
  summary: "The consent page's form: Allow or Deny",
};
export const oauthToken: Route = {
  operationId: 'oauthToken',
  method: 'POST',
  path: '/oauth/token',
  handler: 'functions/authorization/token.ts',
  auth: 'none',
  body: 'form',
  cors: true,
  table: 'write',
  signs: true,
  summary: 'Token endpoint of the authorization code flow: authorization_code (with PKCE) and refresh_token grants',
};
export const registerClient: Route = {
  operationId: 'registerClient',
  method: 'POST',
  path: '/oauth/register',
  handler: 'functions/authorization/register.ts',
  auth: 'none',
  body: 'json',
  oauthRefusals: true,
  cors: 'public',
  table: 'write',
  summary: 'Dynamic client registration (RFC 7591) of public clients with PKCE, such as MCP clients; rate limited per address',
};
export const revokeToken: Route = {
  operationId: 'revokeToken',
  method: 'POST',
  path: '/oauth/revoke',
  handler: 'functions/authorization/revoke.ts',
  auth: 'none',
  body: 'form',
  cors: true,
  table: 'write',
  summary: 'Token revocation (RFC 7009): ends the whole grant',
};
// Protected resource metadata (RFC 9728) and the remote MCP server ({app_url}; docs/mcp.md)
export const getProtectedResourceMetadata: Route = {
  operationId: 'getProtectedResourceMetadata',
  method: 'GET',
  path: '/.well-known/oauth-protected-resource',
  handler: 'functions/mcp/resource-metadata.ts',
  auth: 'none',
  cors: 'public',
  // MCP clients send their protocol version with discovery requests too.
  corsHeaders: ['Mcp-Protocol-Version'],
  table: 'none',
  summary: 'Protected resource metadata (RFC 9728) of the MCP server',
};
export const getMcpResourceMetadata: Route = {
  operationId: 'getMcpResourceMetadata',
  method: 'GET',
  path: '/.well-known/oauth-protected-resource/mcp',
  handler: 'functions/mcp/mcp-resource-metadata.ts',
  auth: 'none',
  cors: 'public',
  // MCP clients send their protocol version with discovery requests too.
  corsHeaders: ['Mcp-Protocol-Version'],
  table: 'none',
  summary: "Protected resource metadata (RFC 9728) at the MCP server's path-suffixed location",
};
export const mcp: Route = {
  operationId: 'mcp',
  method: 'POST',
  path: '/mcp',
  handler: 'functions/mcp/post.ts',
  auth: 'bearer',
  resource: 'mcp',
  body: 'json',
  // Any origin may be told, in a 401, where to get a token; what a token does is refused from any
  // origin but its application's (refusesForeignOrigins), so only those read a tool's answer.
  cors: 'public',
  // MCP's protocol version header, which a client sends on every request after the first.
  corsHeaders: ['Mcp-Protocol-Version'],
  refusesForeignOrigins: true,
  table: 'write',
  secret: true,
  summary: 'Model Context Protocol server (Streamable HTTP, stateless, JSON responses): tools over scores, entities and notes',
};
export const mcpGet: Route = {
  operationId: 'mcpGet',
  method: 'GET',
  path: '/mcp',
  handler: 'functions/mcp/get.ts',
  auth: 'none',
  cors: 'public',
  refusesForeignOrigins: true,
  refusesMethod: true,
  table: 'none',
  summary: 'The MCP server opens no event stream: 405, only POST',
};
export const mcpDelete: Route = {
  operationId: 'mcpDelete',
  method: 'DELETE',
  path: '/mcp',
  handler: 'functions/mcp/delete.ts',
  auth: 'none',
  cors: 'public',
  refusesForeignOrigins: true,
  refusesMethod: true,
  table: 'none',
  summary: 'The MCP server is stateless, there is no session to end: 405, only POST',
};
// Member pages ({app_url}; README "Pages"): server-rendered HTML for signed-in members, read-only
export const homePage: Route = {
  operationId: 'homePage',
  method: 'GET',
  path: '/',
  handler: 'functions/pages/home.ts',
  auth: 'none',
  response: 'html',
  table: 'read',
  secret: true,
  summary: "Page: the workspace's products ranked by customer score",
};
export const entityPage: Route = {
  operationId: 'entityPage',
  method: 'GET',
  path: '/entities/{id}',
  handler: 'functions/pages/entity.ts',
  auth: 'none',
  response: 'html',
  table: 'read',
  secret: true,
  summary: 'Page: an entity, its children ranked by customer score and the feedback linked to it',
};
export const notePage: Route = {
  operationId: 'notePage',
  method: 'GET',
  path: '/notes/{id}',
  handler: 'functions/pages/note.ts',
  auth: 'none',
  response: 'html',
  table: 'read',
  secret: true,
  summary: 'Page: a note, its customer and its links with importance',
};
export const memberPage: Route = {
  operationId: 'memberPage',
  method: 'GET',
  path: '/members/{id}',
  handler: 'functions/pages/member.ts',
  auth: 'none',
  response: 'html',
  table: 'read',
  secret: true,
  summary: 'Page: a member, their role and what they own',
};
export const teamPage: Route = {
  operationId: 'teamPage',
  method: 'GET',
  path: '/teams/{id}',
  handler: 'functions/pages/team.ts',
  auth: 'none',
  response: 'html',
  table: 'read',
  secret: true,
  summary: 'Page: a team and its members',
};
export const pageSignInPage: Route = {
  operationId: 'pageSignInPage',
  method: 'GET',
  path: '/sign-in',
  handler: 'functions/pages/sign-in-page.ts',
  auth: 'none',
  response: 'html',
  table: 'read',
  secret: true,
  summary: "The member pages' sign-in page",
};
export const pageSignIn: Route = {
  operationId: 'pageSignIn',
  method: 'POST',
  path: '/sign-in',
  handler: 'functions/pages/sign-in.ts',
  auth: 'none',
  body: 'form',
  response: 'html',
  table: 'write',
  secret: true,
  summary: "The member pages' sign-in form: workspace ID, e-mail and password; a page session",
};
export const pageSignOut: Route = {
  operationId: 'pageSignOut',
  method: 'POST',
  path: '/sign-out',
  handler: 'functions/pages/sign-out.ts',
  auth: 'none',
  body: 'form',
  response: 'html',
  table: 'write',
  secret: true,
  summary: "Ends the member's page session",
};
export const corsPreflight: Route = {
  operationId: 'corsPreflight',
  method: 'OPTIONS',
  path: PREFLIGHT_PATH,
  handler: 'functions/cors/preflight.ts',
  auth: 'none',
  table: 'read',
  summary: 'CORS preflight of every route browser clients may call',
};

/** Every row, in the order above: the gateway, the stack and the OpenAPI document read this list. */
export const ROUTES = [
  getCustomerScore,
  getCustomerDemand,
  createEntity,
  listEntities,
  searchEntities,
  listEntityConfigurations,
  getEntityConfiguration,
  getEntity,
  updateEntity,
  deleteEntity,
  listEntityRelationships,
  setEntityParent,
  createEntityRelationship,
  deleteEntityRelationship,
  listEntityFieldValues,
  createEntityFieldValue,
  updateEntityFieldValue,
  deleteEntityFieldValue,
  createNote,
  listNotes,
  searchNotes,
  listNoteConfigurations,
  getNoteConfiguration,
  getNote,
  updateNote,
  deleteNote,
  listNoteRelationships,
  createNoteRelationship,
  setNoteLink,
  setNoteCustomer,
  deleteNoteRelationship,
  createNoteComment,
  listNoteComments,
  listMembers,
  getMember,
  searchMembers,
  listTeams,
  createTeam,
  searchTeams,
  getTeam,
  updateTeam,
  deleteTeam,
  listTeamMembers,
  createWebhook,
  listWebhooks,
  getWebhook,
  deleteWebhook,
  issueToken,
  createApplication,
  listApplications,
  getApplication,
  deleteApplication,
  addApplicationKey,
  deleteApplicationKey,
  getOpenApiDocument,
  getAuthorizationServerMetadata,
  authorize,
  signIn,
  consent,
  oauthToken,
  registerClient,
  revokeToken,
  getProtectedResourceMetadata,
  getMcpResourceMetadata,
  mcp,
  mcpGet,
  mcpDelete,
  homePage,
  entityPage,
  notePage,
  memberPage,
  teamPage,
  pageSignInPage,
  pageSignIn,
  pageSignOut,
  corsPreflight,
] as const satisfies readonly Route[];

export type OperationId = (typeof ROUTES)[number]['operationId'];

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** Whether browser clients may call a route cross-origin: the API and the routes that say so. */
export const allowsCors = (route: Route): boolean => route.method !== 'OPTIONS' && (!!route.cors || route.path.startsWith('/v2/'));

/** The paths a preflight answers (each path with a CORS route), in table order. */
export const corsPaths = (): string[] => [...new Set((ROUTES as readonly Route[]).filter(allowsCors).map((route) => route.path))];

type Segment = { literal: string } | { param: string };

/**
 * How API Gateway answers on one path of a table (infra/route-area.ts builds it so; the local
 * gateway answers as it does): its rows' methods; an OPTIONS for the preflight where it has CORS
 * routes; and, unless a method it lacks is served by a less specific path that takes all its
 * requests (`…/relationships/{targetType}/{targetId}` DELETE, for `…/relationships/link/{entityId}`),
 * an ANY that answers every other method 405. API Gateway picks on the pair of path and method —
 * the most specific path that has the method, an ANY as readily as any other — so such an ANY
 * would take that method away; without it the method falls through, and so do the ones nothing
 * serves, to a less specific path's ANY, which names in Allow what this path takes (`shadows`).
 */
export interface PathLayout {
  path: string;
  segments: Segment[];
  rows: Route[];
  /** The preflight answers OPTIONS here. */
  cors: boolean;
  /** An ANY answers every other method 405. */
  any: boolean;
  /** What a 405 here lists in Allow (RFC 9110 §10.2.1): the methods served here, this path's or, falling through, a less specific one's. */
  allow: string;
  /** Paths whose requests fall through to this one's ANY: where this path's parameters hold their literals, Allow is theirs. */
  shadows: Array<{ literals: Record<string, string>; allow: string }>;
}

const layouts = new WeakMap<readonly Route[], PathLayout[]>();

/** The layout of every path of a table, the most specific first; built on first use (not at import: see the header). */
export function layoutOf(table: readonly Route[]): PathLayout[] {
  const found = layouts.get(table);
  if (found) return found;
  const paths = [...new Set(table.filter((route) => route.path !== PREFLIGHT_PATH).map((route) => route.path))].map((path): PathLayout => {
    const segments = path
      .split('/')
      .slice(1)
      .map((s): Segment => (s.startsWith('{') ? { param: s.slice(1, -1) } : { literal: s }));
    const rows = table.filter((route) => route.path === path);
    return { path, segments, rows, cors: rows.some(allowsCors), any: true, allow: '', shadows: [] };
  });
  // At the first segment where two paths differ in kind, the literal first: the order API Gateway tries them in.
  const kinds = (layout: PathLayout) => layout.segments.map((seg) => ('literal' in seg ? '0' : '1')).join('');
  paths.sort((a, b) => (kinds(a) < kinds(b) ? -1 : kinds(a) > kinds(b) ? 1 : 0));
  // The least specific first: whether a path has an ANY depends on the paths that take all its requests.
  for (const layout of [...paths].reverse()) {
    const covering = paths.filter((other) => other !== layout && covers(other.segments, layout.segments));
    const served = METHOD_ORDER.filter((method) => {
      if (layout.rows.some((row) => row.method === method)) return true;
      for (const other of covering) {
        if (other.rows.some((row) => row.method === method)) return true;
        if (other.any) return false;
      }
      return false;
    });
    layout.any = served.every((method) => layout.rows.some((row) => row.method === method));
    const allowed = served.filter((method) => !layout.rows.concat(covering.flatMap((c) => c.rows)).some((row) => row.method === method && row.refusesMethod));
    layout.allow = [...allowed, ...(layout.cors || covering.some((c) => c.cors) ? ['OPTIONS'] : [])].join(', ');
    if (!layout.any) {
      const catcher = covering.find((other) => other.any);
      const literals = Object.fromEntries(
        layout.segments.flatMap((seg, i) => {
          const theirs = catcher?.segments[i];
          return 'literal' in seg && theirs && 'param' in theirs ? [[theirs.param, seg.literal]] : [];
        }),
      );
      catcher?.shadows.push({ literals, allow: layout.allow });
    }
  }
  layouts.set(table, paths);
  return paths;
}

/** Whether every request path `a` takes, `b` takes too: the same length, and where `b` has a literal, `a` has the same one. */
const covers = (b: readonly Segment[], a: readonly Segment[]): boolean =>
  a.length === b.length && b.every((seg, i) => !('literal' in seg) || ('literal' in a[i]! && a[i].literal === seg.literal));

/**
 * The paths of a table a raw (still percent-encoded) path names, the most specific first, with its
 * parameters. Like a REST API proxy event, parameter values stay percent-encoded: the pipeline
 * decodes them, so handlers see the same values deployed and locally.
 */
function pathsNaming(table: readonly Route[], rawPath: string): Array<{ layout: PathLayout; params: Record<string, string> }> {
  const parts = rawPath.split('/').slice(1);
  const found: Array<{ layout: PathLayout; params: Record<string, string> }> = [];
  for (const layout of layoutOf(table)) {
    if (layout.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = layout.segments.every((seg, i) => {
      const part = parts[i]!;
      if ('literal' in seg) return seg.literal === part;
      params[seg.param] = part;
      return part.length > 0;
    });
    if (ok) found.push({ layout, params });
  }
  return found;
}

/** What answers `method` on a raw path: a row, a 405 with its Allow, or nothing (an unknown route: 404). */
type Resolved = { match: RouteMatch } | { allow: string } | undefined;

/** As API Gateway picks (PathLayout): the most specific path with a row for the method, or with an ANY. */
function resolveIn(table: readonly Route[], method: string, rawPath: string): Resolved {
  for (const { layout, params } of pathsNaming(table, rawPath)) {
    const route = layout.rows.find((row) => row.method === method);
    if (route) return { match: { route, params } };
    if (layout.any) {
      const shadow = layout.shadows.find(({ literals }) => Object.entries(literals).every(([param, literal]) => params[param] === literal));
      return { allow: (shadow ?? layout).allow };
    }
  }
  return undefined;
}

/** The CORS routes on a path, one per method, in the order GET, POST, PUT, PATCH, DELETE: what its preflight answers for. */
export function corsRoutesAt(rawPath: string): Route[] {
  return METHOD_ORDER.map((method) => resolveIn(ROUTES, method, rawPath)).flatMap((r) =>
    r && 'match' in r && allowsCors(r.match.route) ? [r.match.route] : [],
  );
}

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The row serving `method` on a raw path (resolveIn); OPTIONS on a path with CORS routes is the
 * preflight row.
 */
export function matchRoute(method: string, rawPath: string): RouteMatch | undefined {
  if (method === 'OPTIONS' && corsRoutesAt(rawPath).length > 0) return { route: corsPreflight, params: {} };
  const resolved = resolveIn(ROUTES, method, rawPath);
  return resolved && 'match' in resolved ? resolved.match : undefined;
}

/** The methods a raw path takes, as its 405s' Allow lists them (OPTIONS among them on a CORS path); undefined for an unknown path. */
export function allowAt(rawPath: string): string | undefined {
  // A method no row has: what answers it is the path's catch-all, which carries the path's Allow.
  return refusedWith('', rawPath);
}

/** The Allow of the 405 a method the route table does not serve on a raw path gets, or undefined when none answers it (404). */
export function refusedWith(method: string, rawPath: string): string | undefined {
  if (method === 'OPTIONS' && corsRoutesAt(rawPath).length > 0) return undefined;
  const resolved = resolveIn(ROUTES, method, rawPath);
  return resolved && 'allow' in resolved ? resolved.allow : undefined;
}
