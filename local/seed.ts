// The demo workspace `npm start` creates once: an admin member and an API token for them.
import { readFile, writeFile } from 'node:fs/promises';
import { issueApiToken } from '#lib/auth/api-tokens.ts';
import { addMember } from '#lib/store/members.ts';
import { createWorkspace, getWorkspace } from '#lib/store/workspaces.ts';
import type { DevFacts } from './paths.ts';

export const DEMO_ADMIN_EMAIL = 'admin@example.com';

/** Reuses the demo of an earlier run when its workspace is still in the table, else makes a new one. */
export async function ensureDemo(
  devFile: string,
  facts: Omit<DevFacts, 'workspaceId' | 'adminEmail' | 'adminToken' | 'adminTokenId'>,
): Promise<{ facts: DevFacts; created: boolean }> {
  try {
    const previous = JSON.parse(await readFile(devFile, 'utf8')) as DevFacts;
    if (previous.workspaceId && (await getWorkspace(previous.workspaceId))) {
      const next = { ...previous, ...facts };
      await writeFile(devFile, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
      return { facts: next, created: false };
    }
  } catch {
    // no usable dev.json: make a new demo
  }
  const workspace = await createWorkspace('Demo workspace');
  const admin = await addMember(workspace.id, { email: DEMO_ADMIN_EMAIL, name: 'Demo Admin', role: 'admin', active: true });
  const token = await issueApiToken(admin);
  const next: DevFacts = { ...facts, workspaceId: workspace.id, adminEmail: admin.email, adminToken: token.token, adminTokenId: token.id };
  await writeFile(devFile, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
  return { facts: next, created: true };
}
