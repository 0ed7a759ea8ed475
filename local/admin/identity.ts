// Workspaces, members, their passwords (browser sign-in, docs/oauth.md) and API tokens.
import { readFile } from 'node:fs/promises';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import { hashPassword, passwordProblem } from '#lib/auth/passwords.ts';
import { parseScopes, ROLES, type Role, type Scope } from '#lib/domain/scopes.ts';
import { revokeCredential } from '#lib/store/credentials.ts';
import { addMember, getMemberByEmail, normalizeEmail, setMemberActive } from '#lib/store/members.ts';
import { setMemberPassword } from '#lib/store/sign-in.ts';
import { createWorkspace, getWorkspace } from '#lib/store/workspaces.ts';
import { asUsage, checkedName, optional, required, UsageError, type AdminCommand } from './command.ts';

async function existingWorkspace(id: string) {
  const ws = await getWorkspace(id);
  if (!ws) throw new UsageError(`No workspace ${id}`);
  return ws;
}

export const identityCommands: AdminCommand[] = [
  {
    name: 'workspace create',
    usage: 'workspace create --name N',
    options: { name: 'value' },
    run: async (o) => {
      const name = checkedName('name', required(o, 'name'));
      const ws = await createWorkspace(name);
      return { id: ws.id, name: ws.name };
    },
  },
  {
    name: 'member add',
    usage: 'member add --workspace W --email E [--name N] [--role admin|maker|viewer] [--inactive]',
    options: { workspace: 'value', email: 'value', name: 'value', role: 'value', inactive: 'flag' },
    run: async (o) => {
      const workspace = required(o, 'workspace');
      const email = normalizeEmail(required(o, 'email'));
      if (!email) throw new UsageError(`--email is not an e-mail address`);
      const role = (optional(o, 'role') ?? 'maker') as Role;
      if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const given = optional(o, 'name');
      const name = given === undefined ? undefined : checkedName('name', given);
      const member = await asUsage(() => addMember(workspace, { email, role, active: o.inactive !== true, ...(name ? { name } : {}) }));
      return { id: member.id, email: member.email, role: member.role, active: member.active };
    },
  },
  {
    name: 'member deactivate',
    usage: 'member deactivate --workspace W --email E',
    options: { workspace: 'value', email: 'value' },
    run: async (o) => {
      const member = await asUsage(() => setMemberActive(required(o, 'workspace'), required(o, 'email'), false));
      return { id: member.id, email: member.email, active: member.active };
    },
  },
  {
    name: 'member password set',
    usage: 'member password set --workspace W --email E [--password-file F]   (else the password is read from stdin)',
    options: { workspace: 'value', email: 'value', 'password-file': 'value', password: 'value' },
    run: async (o) => {
      if (o.password !== undefined) {
        throw new UsageError(
          '--password is not accepted: a password on the command line shows in process lists and shell history; pipe it on stdin or use --password-file.',
        );
      }
      const workspace = required(o, 'workspace');
      await existingWorkspace(workspace);
      const email = required(o, 'email');
      const member = await getMemberByEmail(workspace, email);
      if (!member) throw new UsageError(`No member ${email} in workspace ${workspace}`);
      const password = await readPassword(optional(o, 'password-file'));
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      await setMemberPassword(workspace, member.id, await hashPassword(password));
      return { id: member.id, email: member.email, passwordSet: true };
    },
  },
  {
    name: 'token issue',
    usage: 'token issue --workspace W --email E [--scopes "s1 s2"] [--expires-in-days N]',
    options: { workspace: 'value', email: 'value', scopes: 'value', 'expires-in-days': 'value' },
    run: async (o) => {
      const workspace = required(o, 'workspace');
      await existingWorkspace(workspace);
      const email = required(o, 'email');
      const member = await getMemberByEmail(workspace, email);
      if (!member) throw new UsageError(`No member ${email} in workspace ${workspace}`);
      const scopesArg = optional(o, 'scopes');
      let scopes: Scope[] | undefined;
      if (scopesArg !== undefined) {
        const parsed = parseScopes(scopesArg);
        if (parsed.unknown.length) throw new UsageError(`Unknown scope(s): ${parsed.unknown.join(', ')}`);
        if (parsed.scopes.length === 0) throw new UsageError('--scopes names no scope');
        scopes = parsed.scopes;
      }
      const days = optional(o, 'expires-in-days');
      let expiresAt: Date | undefined;
      if (days !== undefined) {
        const n = Number(days);
        if (!Number.isFinite(n) || n <= 0 || n > 3650) throw new UsageError('--expires-in-days must be a number of days above 0 and at most 3650');
        expiresAt = new Date(Date.now() + n * 86_400_000);
      }
      const issued = await asUsage(() => issueApiToken(member, { ...(scopes ? { scopes } : {}), ...(expiresAt ? { expiresAt } : {}) }));
      return { id: issued.id, token: issued.token, scopes: issued.scopes, ...(issued.expiresAt ? { expiresAt: issued.expiresAt } : {}) };
    },
  },
  {
    name: 'token revoke',
    usage: 'token revoke --workspace W --id TOKEN_ID',
    options: { workspace: 'value', id: 'value' },
    run: async (o) => {
      const workspace = required(o, 'workspace');
      const id = required(o, 'id');
      if (!(await revokeCredential(workspace, id))) throw new UsageError(`No token ${id} in workspace ${workspace}`);
      return { id, revoked: true };
    },
  },
];

/** The password from a file or stdin, without the one line break that ends it. */
async function readPassword(file: string | undefined): Promise<string> {
  let text: string;
  if (file !== undefined) {
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`Cannot read --password-file ${file}: ${(err as Error).message}`);
    }
  } else {
    if (process.stdin.isTTY) throw new UsageError('Pipe the password on stdin (it is not echoed anywhere) or use --password-file F.');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    text = Buffer.concat(chunks).toString('utf8');
  }
  return text.replace(/\r?\n$/, '');
}
