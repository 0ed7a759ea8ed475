import type { Role, Scope } from '../domain/scopes.ts';

/** Who is calling: every store access goes through `workspaceId`. */
export interface Principal {
  workspaceId: string;
  memberId: string;
  email: string;
  role: Role;
  scopes: ReadonlySet<Scope>;
  /** `api`: an API token; `access`: a token from the JWT bearer grant. */
  credential: 'api' | 'access';
  tokenId: string;
  /** The application that minted an access token. */
  clientId?: string;
}
