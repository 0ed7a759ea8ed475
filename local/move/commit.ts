// The last step of a move into a new workspace (restore, `import productboard`): the workspace item
// is written only now. Until it exists nothing can reach the workspace: issuing a token, adding a
// member, setting a password or registering an application all require it (lib/store/workspaces.ts
// putInWorkspace, the admin CLI's checks), and no credential of it exists. Then the run is marked
// complete and an admin token is issued, as `workspace create` and `token issue` do.
import { randomUUID } from 'node:crypto';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import { earliestActiveAdmin, getMemberByEmail, normalizeEmail, type Member } from '#lib/store/members.ts';
import { BulkWriter } from '#lib/store/move/load.ts';
import { saveProgress, type MoveRun } from '#lib/store/move/runs.ts';
import { commitMovedWorkspace } from '#lib/store/workspaces.ts';
import { UsageError } from '../admin/command.ts';

/** The admin the token is issued to: the member named by `email` (added as an admin when the workspace has none with it), else the earliest active admin. */
async function adminOf(ws: string, email: string | undefined, quiet: string): Promise<Member> {
  if (email !== undefined) {
    const address = normalizeEmail(email);
    if (!address) throw new UsageError(`--admin-email ${email} is not an e-mail address`);
    const found = await getMemberByEmail(ws, address);
    if (found) {
      if (found.role !== 'admin' || !found.active)
        throw new UsageError(`${address} is a member of the workspace but not an active admin; name another --admin-email`);
      return found;
    }
    const writer = new BulkWriter({ ws, id: () => randomUUID(), quiet, sealedSecret: () => '' });
    await writer.add({ kind: 'member', id: 'operator', email: address, name: address, role: 'admin', active: true, createdAt: new Date().toISOString() });
    await writer.flush();
    return (await getMemberByEmail(ws, address))!;
  }
  const best = await earliestActiveAdmin(ws);
  if (!best)
    throw new UsageError(
      'The workspace has no active admin to issue a token to: run the same command again with --admin-email E (a new admin member E is added)',
    );
  return best;
}

export interface Committed {
  id: string;
  name: string;
  admin: { id: string; email: string };
  token: { id: string; token: string; scopes: string[] };
}

/** Makes the run's workspace reachable (once) and issues an admin token. */
export async function commitWorkspace(
  run: MoveRun<unknown>,
  options: { adminEmail?: string | undefined; quiet: string; webhooks: number },
): Promise<Committed> {
  const ws = run.workspaceId;
  const admin = await adminOf(ws, options.adminEmail, options.quiet);
  await commitMovedWorkspace({ id: ws, name: run.name, createdAt: run.startedAt }, options.webhooks, run);
  if (run.state !== 'complete') await saveProgress(run, { state: 'complete', completedAt: new Date().toISOString() });
  const token = await issueApiToken(admin);
  return { id: ws, name: run.name, admin: { id: admin.id, email: admin.email }, token: { id: token.id, token: token.token, scopes: token.scopes } };
}
