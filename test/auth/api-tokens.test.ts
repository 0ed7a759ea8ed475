import { describe, expect, it } from 'vitest';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import { authenticate } from '#lib/auth/bearer.ts';
import { apiErrorOf } from '#lib/http/error-map.ts';
import { ApiError } from '#lib/http/errors.ts';
import { revokeCredential } from '#lib/store/credentials.ts';
import { setMemberActive } from '#lib/store/members.ts';
import { newWorkspace } from '../support/app.ts';

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  const refusal = apiErrorOf(err);
  expect(refusal).toBeInstanceOf(ApiError);
  return refusal!;
}

describe('API tokens', () => {
  it('a token issued to a member authenticates as that member with its scopes', async () => {
    const ws = await newWorkspace();
    const p = await authenticate(`Bearer ${ws.token}`);
    expect(p).toMatchObject({
      workspaceId: ws.workspaceId,
      memberId: ws.admin.id,
      email: ws.admin.email,
      role: 'admin',
      credential: 'api',
      tokenId: ws.tokenId,
    });
    expect([...p.scopes].sort()).toEqual([
      'entities:delete',
      'entities:read',
      'fields:write',
      'members:pii:read',
      'members:read',
      'notes:delete',
      'notes:read',
      'notes:write',
      'teams:delete',
      'teams:read',
      'teams:write',
      'users:pii:read',
      'webhooks:delete',
      'webhooks:read',
      'webhooks:write',
      'write:entities',
    ]);
  });

  it('a revoked token → auth.invalid', async () => {
    const ws = await newWorkspace();
    expect(await revokeCredential(ws.workspaceId, ws.tokenId)).toBe(true);
    const err = await rejection(authenticate(`Bearer ${ws.token}`));
    expect([err.code, err.detail]).toEqual(['auth.invalid', 'The bearer token has been revoked.']);
  });

  it("revoking needs the token's own workspace", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    expect(await revokeCredential(b.workspaceId, a.tokenId)).toBe(false);
    await expect(authenticate(`Bearer ${a.token}`)).resolves.toMatchObject({ workspaceId: a.workspaceId });
  });

  it('a deactivated member → auth.invalid', async () => {
    const ws = await newWorkspace();
    await setMemberActive(ws.workspaceId, ws.admin.email, false);
    const err = await rejection(authenticate(`Bearer ${ws.token}`));
    expect([err.code, err.detail]).toEqual(['auth.invalid', "The token's member is deactivated or no longer exists."]);
  });

  it('an expired token → auth.invalid', async () => {
    const ws = await newWorkspace();
    const issued = await issueApiToken(ws.admin, { expiresAt: new Date(Date.now() - 1000) });
    const err = await rejection(authenticate(`Bearer ${issued.token}`));
    expect(err.code).toBe('auth.invalid');
  });

  it('a viewer cannot be issued write scopes', async () => {
    const ws = await newWorkspace();
    await expect(ws.member({ role: 'viewer', scopes: ['write:entities'] })).rejects.toThrow('A viewer may not hold write:entities');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not bearer', 'Basic dXNlcjpwYXNz'],
    ['garbage', 'Bearer not.a.jwt'],
    ['unsigned', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'],
  ])('%s credentials → auth.invalid', async (_name, header) => {
    const err = await rejection(authenticate(header));
    expect(err.code).toBe('auth.invalid');
    expect(err.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
  });

  it('one value with a comma in it is one malformed value, not two (two fields are refused by the pipeline, test/http/pipeline.test.ts)', async () => {
    const ws = await newWorkspace();
    for (const value of [`Bearer ${ws.token}, Bearer ${ws.token}`, `Bearer ${ws.token}, Basic x`]) {
      const err = await rejection(authenticate(value));
      expect([err.code, err.detail]).toEqual(['auth.invalid', 'The Authorization header is not of the form "Bearer <token>".']);
    }
  });

  it('a well-signed token whose record is gone (unknown jti) → auth.invalid', async () => {
    const ws = await newWorkspace();
    // Same member, same key, but a token the table never recorded: tamper the stored id.
    const [h, , s] = ws.token.split('.');
    const payload = JSON.parse(Buffer.from(ws.token.split('.')[1]!, 'base64url').toString());
    payload.jti = '00000000-0000-4000-8000-000000000000';
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect((await rejection(authenticate(`Bearer ${forged}`))).code).toBe('auth.invalid');
  });
});
