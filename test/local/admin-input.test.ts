// The admin CLI holds what it makes to the API's rules: a workspace's or a member's name needs a
// visible character among at most 255 (as every name the API takes), and a refusal says what the rule is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMemberByEmail } from '#lib/store/members.ts';
import { UsageError } from '../../local/admin/command.ts';
import { identityCommands } from '../../local/admin/identity.ts';
import { newWorkspace, startApp, type TestApp } from '../support/app.ts';

const command = (name: string) => identityCommands.find((c) => c.name === name)!;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
});

describe('admin CLI: names and numbers', () => {
  it.each([
    ['blank', '  ', "--name must have a visible character, not only white space (got '  ')."],
    ['invisible', '\t\u200b', "--name must have a visible character, not only white space (got '\t\u200b')."],
    ['too long', 'x'.repeat(256), '--name must be at most 255 characters long (got 256).'],
  ])('a %s name → usage error; no workspace, no member made', async (_what, name, message) => {
    await expect(command('workspace create').run({ name })).rejects.toThrow(new UsageError(message));
    const ws = await newWorkspace();
    const email = `named-${process.pid}@example.com`;
    await expect(command('member add').run({ workspace: ws.workspaceId, email, name })).rejects.toThrow(new UsageError(message));
    expect(await getMemberByEmail(ws.workspaceId, email)).toBeUndefined();
  });

  it('a name at the limits is taken as given', async () => {
    const ws = await newWorkspace();
    const name = `é${'x'.repeat(254)}`;
    const member = (await command('member add').run({ workspace: ws.workspaceId, email: `wide-${process.pid}@example.com`, name })) as { id: string };
    expect((await getMemberByEmail(ws.workspaceId, `wide-${process.pid}@example.com`))?.name).toBe(name);
    expect(member.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await command('workspace create').run({ name })).toMatchObject({ name });
  });

  it('--expires-in-days says the range it takes', async () => {
    const ws = await newWorkspace();
    for (const days of ['0', '-1', '3651', 'soon'])
      await expect(command('token issue').run({ workspace: ws.workspaceId, email: ws.admin.email, 'expires-in-days': days })).rejects.toThrow(
        new UsageError('--expires-in-days must be a number of days above 0 and at most 3650'),
      );
  });
});
