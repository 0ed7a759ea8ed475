import type { Role, Scope } from '../domain/scopes.ts';

/** Who is calling: every store access goes through `workspaceId`. */
export interface Principal {
  workspaceId: string;
  memberId: string;
  email: string;
  role: Role;
  scopes: ReadonlySet<Scope>;
  /** `api`: an API token; `access`: an access token (JWT bearer grant, or authorization code flow). */
  credential: 'api' | 'access';
  tokenId: string;
  /** The application that minted an access token. */
  clientId?: string;
  /** The grant of an authorization code flow access token. */
  grantId?: string;
  /** Browser origins that may read the answers to this token (its application's redirect-URI origins). */
  corsOrigins?: readonly string[];
}
