// OAuth applications — server-to-server ones with their public keys, authorization-code ones with
// their redirect URIs — by the same rules as {app_url}/oauth2/applications.
import { readFile } from 'node:fs/promises';
import { applicationView, registerApplication, uploadKey } from '#lib/auth/applications.ts';
import { applicationNotFound } from '#lib/domain/applications.ts';
import { parseInput } from '#lib/domain/input.ts';
import { AddKeyBody, CreateApplicationBody } from '#lib/domain/schemas/applications.ts';
import { deleteApplication, getApplication, listApplications, removeApplicationKey } from '#lib/store/applications.ts';
import { getWorkspace } from '#lib/store/workspaces.ts';
import { asUsage, optional, repeated, required, UsageError, type AdminCommand, type Options } from './command.ts';

const words = (value: string | undefined) => value?.split(/[\s,]+/).filter(Boolean);

async function workspaceOf(o: Options): Promise<string> {
  const id = required(o, 'workspace');
  if (!(await getWorkspace(id))) throw new UsageError(`No workspace ${id}`);
  return id;
}

export const appCommands: AdminCommand[] = [
  {
    name: 'app create',
    usage:
      'app create --workspace W --name N --scopes "s1 s2" [--default-scopes "s1"] [--type serverToServer|authorizationCode --redirect-uri U [--redirect-uri U2 ...] [--public]]',
    options: { workspace: 'value', name: 'value', scopes: 'value', 'default-scopes': 'value', type: 'value', 'redirect-uri': 'values', public: 'flag' },
    run: async (o) => {
      const ws = await workspaceOf(o);
      const defaults = words(optional(o, 'default-scopes'));
      const type = optional(o, 'type');
      const redirectUris = repeated(o, 'redirect-uri');
      const body = {
        name: required(o, 'name'),
        scopes: words(required(o, 'scopes')),
        ...(defaults ? { defaultScopes: defaults } : {}),
        ...(type ? { type } : {}),
        // Given as the API would get them, so it refuses them for a server-to-server application.
        ...(redirectUris.length > 0 || type === 'authorizationCode' ? { redirectUris } : {}),
        ...(o.public === true ? { public: true } : {}),
      };
      // A confidential client's secret is in this output, once: store it now.
      return asUsage(() => registerApplication(ws, parseInput(CreateApplicationBody, body, 'body')));
    },
  },
  {
    name: 'app list',
    usage: 'app list --workspace W',
    options: { workspace: 'value' },
    run: async (o) => ({ data: (await listApplications(await workspaceOf(o))).map(applicationView) }),
  },
  {
    name: 'app get',
    usage: 'app get --workspace W --client-id C',
    options: { workspace: 'value', 'client-id': 'value' },
    run: async (o) => {
      const clientId = required(o, 'client-id');
      const app = await getApplication(await workspaceOf(o), clientId);
      if (!app) throw new UsageError(applicationNotFound(clientId).detail);
      return applicationView(app);
    },
  },
  {
    name: 'app delete',
    usage: 'app delete --workspace W --client-id C',
    options: { workspace: 'value', 'client-id': 'value' },
    run: async (o) => {
      const clientId = required(o, 'client-id');
      if (!(await deleteApplication(await workspaceOf(o), clientId))) throw new UsageError(applicationNotFound(clientId).detail);
      return { clientId, deleted: true };
    },
  },
  {
    name: 'app key add',
    usage: 'app key add --workspace W --client-id C --pem-file F',
    options: { workspace: 'value', 'client-id': 'value', 'pem-file': 'value' },
    run: async (o) => {
      const ws = await workspaceOf(o);
      const file = required(o, 'pem-file');
      let publicKey: string;
      try {
        publicKey = await readFile(file, 'utf8');
      } catch (err) {
        throw new UsageError(`Cannot read --pem-file ${file}: ${(err as Error).message}`);
      }
      return asUsage(() => uploadKey(ws, required(o, 'client-id'), parseInput(AddKeyBody, { publicKey }, 'body').publicKey));
    },
  },
  {
    name: 'app key remove',
    usage: 'app key remove --workspace W --client-id C --key-id K',
    options: { workspace: 'value', 'client-id': 'value', 'key-id': 'value' },
    run: async (o) => {
      const ws = await workspaceOf(o);
      const clientId = required(o, 'client-id');
      const keyId = required(o, 'key-id');
      if (!(await removeApplicationKey(ws, clientId, keyId))) throw new UsageError(`No key ${keyId} on application ${clientId} in workspace ${ws}`);
      return { clientId, keyId, removed: true };
    },
  },
];
