// Authorization server metadata (RFC 8414 §2), served at {app_url}/.well-known/oauth-authorization-server.
// The issuer is {app_url}. RFC 8414 §3.1 puts the document of an issuer with a path at
// /.well-known/oauth-authorization-server/{path} on the host root, which a stage URL's path cannot
// serve: a deployment that must be found that way needs a custom domain without a path (docs/oauth.md).
import type * as z from 'zod/mini';
import { CLIENT_AUTH_METHODS } from './client-authentication.ts';
import { PKCE_METHOD } from '../domain/pkce.ts';
import type { AuthorizationServerMetadata as MetadataSchema } from '../domain/schemas/authorization.ts';
import { SCOPES } from '../domain/scopes.ts';

/** The authorization code flow's endpoints under {app_url} (lib/routes.ts rows carry the same paths). */
const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  signIn: '/oauth/sign-in',
  consent: '/oauth/consent',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  register: '/oauth/register',
  metadata: '/.well-known/oauth-authorization-server',
} as const;

type AuthorizationServerMetadata = z.output<typeof MetadataSchema>;

export function authorizationServerMetadata(appUrl: string): AuthorizationServerMetadata {
  return {
    issuer: appUrl,
    authorization_endpoint: appUrl + OAUTH_PATHS.authorize,
    token_endpoint: appUrl + OAUTH_PATHS.token,
    revocation_endpoint: appUrl + OAUTH_PATHS.revoke,
    registration_endpoint: appUrl + OAUTH_PATHS.register,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: [PKCE_METHOD],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    scopes_supported: [...SCOPES],
    // RFC 9207: the authorization response names the issuer, against mix-up attacks.
    authorization_response_iss_parameter_supported: true,
  };
}
