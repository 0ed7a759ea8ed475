// API tokens: JWTs signed by the service key for one workspace member, shown once, stored as a hash.
import { randomUUID } from 'node:crypto';
import { TokenIssueRefused } from './errors.ts';
import { signServiceJwt } from './service-jwt-signing.ts';
import { ROLE_SCOPES, type Scope } from '../domain/scopes.ts';
import { putCredential, hashToken } from '../store/credentials.ts';
import type { Member } from '../store/members.ts';

/** Issues an API token; scopes default to everything the member's role allows and may not exceed it. */
export async function issueApiToken(
  member: Member,
  options: { scopes?: Scope[]; expiresAt?: Date } = {},
): Promise<{ id: string; token: string; scopes: Scope[]; expiresAt?: string }> {
  if (!member.active) throw new TokenIssueRefused(`${member.email} is deactivated`);
  const allowed = ROLE_SCOPES[member.role];
  const scopes = options.scopes ?? [...allowed];
  const beyond = scopes.filter((s) => !allowed.includes(s));
  if (beyond.length > 0) throw new TokenIssueRefused(`A ${member.role} may not hold ${beyond.join(', ')}`);
  const id = randomUUID();
  const token = await signServiceJwt({ tu: 'api', ws: member.workspaceId, sub: member.id, scope: scopes.join(' '), jti: id }, options.expiresAt);
  const expiresAt = options.expiresAt?.toISOString();
  await putCredential({
    id,
    kind: 'api',
    workspaceId: member.workspaceId,
    memberId: member.id,
    scopes,
    hash: hashToken(token),
    createdAt: new Date().toISOString(),
    ...(expiresAt ? { expiresAt } : {}),
  });
  return { id, token, scopes, ...(expiresAt ? { expiresAt } : {}) };
}
