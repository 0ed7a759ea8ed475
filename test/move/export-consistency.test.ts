// An export reads the workspace kind by kind while it stays open to writes. A member added after the
// members were read and made an entity's owner before the entities are read (a real write, landed
// while a proxy in front of DynamoDB Local holds the export's read of the entities) would give a file
// restore refuses: the export begins again and writes a file that restores; when the workspace
// changes so under every attempt, it is refused, naming the line, and nothing is left at its path. A
// record the workspace itself holds against a rule (one written before the rule: an entity without a
// name, set up here by a raw write) gives the same problem every time: the refusal says so.
import { access, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#lib/store/client.ts';
import * as keys from '#lib/store/keys.ts';
import { addMember } from '#lib/store/members.ts';
import { tableName } from '#lib/store/table.ts';
import { EXPORT_ATTEMPTS, exportWorkspace } from '../../local/move/export.ts';
import { restoreWorkspace } from '../../local/move/restore.ts';
import { call, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';
import { FAULTS, startFaultProxy, type FaultProxy, type ProxiedCall } from '../support/fault-proxy.ts';

let app: TestApp;
let proxy: FaultProxy;
let restore: () => void;
const file = join(tmpdir(), `move-export-consistency-${process.pid}.jsonl.gz`);

beforeAll(async () => {
  app = await startApp();
  proxy = await startFaultProxy();
  restore = proxy.use();
});
afterEach(() => {
  proxy.rule = FAULTS.forward;
});
afterAll(async () => {
  restore();
  await proxy.close();
  await app.close();
  await rm(file, { force: true });
});

/** The export's read of the workspace's entities: a Query of the items under the entities' prefix. */
const readsEntities = (c: ProxiedCall) => c.operation === 'Query' && JSON.stringify(c.input.ExpressionAttributeValues ?? {}).includes('"ENT#"');

/** A workspace with one product; `changes(n)` lets the export's first `n` reads of the entities wait for a new member to become its owner. */
async function workspaceChangedUnderExport(): Promise<{ ws: TestWorkspace; product: string; changes: (n: number) => () => number }> {
  const ws = await newWorkspace('Changed under its export');
  const res = await call(app, 'POST', '/v2/entities', { token: ws.token, body: { data: { type: 'product', fields: { name: 'Checkout' } } } });
  expect(res.status, res.text).toBe(201);
  const product = res.json.data.id as string;
  const changes = (n: number) => {
    let made = 0;
    proxy.rule = async (c) => {
      if (readsEntities(c) && made < n) {
        made++;
        const owner = await addMember(ws.workspaceId, { email: `owner-${made}-${process.pid}@example.com`, role: 'maker', active: true });
        const patched = await call(app, 'PATCH', `/v2/entities/${product}`, { token: ws.token, body: { data: { fields: { owner: { email: owner.email } } } } });
        expect(patched.status, patched.text).toBe(200);
      }
      return FAULTS.forward();
    };
    return () => made;
  };
  return { ws, product, changes };
}

describe('export: a workspace that changes while it is read', () => {
  it('a member added and made an owner between the members and the entities: the export begins again, and its file restores', async () => {
    const { ws, changes } = await workspaceChangedUnderExport();
    const made = changes(1);
    const out = await exportWorkspace(ws.workspaceId, file);
    expect(made()).toBe(1);
    expect(out).toMatchObject({ attempts: 2, counts: { member: 2, entity: 1 } });
    const restored = await restoreWorkspace(file, { name: 'Changed under its export, restored' });
    expect(restored.counts).toEqual(out.counts);
  }, 60_000);

  it(`changed so under each of its ${EXPORT_ATTEMPTS} attempts: refused, naming the line, and nothing is left at the path`, async () => {
    await rm(file, { force: true });
    const { ws, changes } = await workspaceChangedUnderExport();
    changes(EXPORT_ATTEMPTS);
    await expect(exportWorkspace(ws.workspaceId, file)).rejects.toThrow(
      new RegExp(
        `^The export of workspace ${ws.workspaceId} did not hold together 3 times in a row, so restore would refuse it; the last time at line 5: fields\\.owner\\.id: no member record of the file has the id [0-9a-f-]{36}\\. Records written while an export reads the workspace can cause this: export it again when fewer are\\. Nothing was written to ${file.replace(/[.]/g, '\\.')}\\.$`,
      ),
    );
    await expect(access(file)).rejects.toThrow(/ENOENT/);
    await expect(access(`${file}.partial`)).rejects.toThrow(/ENOENT/);
  }, 60_000);

  it("a record the workspace holds against a rule restore applies: the same problem each time, refused as the workspace's own", async () => {
    await rm(file, { force: true });
    const { ws, product } = await workspaceChangedUnderExport();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.entity(ws.workspaceId, product),
        UpdateExpression: 'REMOVE #f.#n',
        ExpressionAttributeNames: { '#f': 'fields', '#n': 'name' },
      }),
    );
    await expect(exportWorkspace(ws.workspaceId, file)).rejects.toThrow(
      `The export of workspace ${ws.workspaceId} would not restore, the same way 3 times: line 3: fields.name: every entity has a name; this one has none. The workspace holds a record that breaks a rule restore holds a file to (one written before the rule, or under another setting of it): change it through the API, then export again. Nothing was written to ${file}.`,
    );
    await expect(access(file)).rejects.toThrow(/ENOENT/);
  }, 60_000);
});

describe("export: a webhook's receiver, held to restore's rule under the same setting", () => {
  it("a loopback receiver the local setting took: exported and restored under that setting, refused as the workspace's own without it", async () => {
    await rm(file, { force: true });
    const ws = await newWorkspace('Loopback receiver');
    const subscribe = () =>
      call(app, 'POST', '/v2/webhooks', {
        token: ws.token,
        body: {
          data: { fields: { name: 'local', events: [{ eventType: 'product.created' }], notification: { url: 'http://127.0.0.1:9/hooks', version: 1 } } },
        },
      });
    process.env.WEBHOOKS_ALLOW_LOOPBACK = '1';
    try {
      const created = await subscribe();
      expect(created.status, created.text).toBe(201);
      const out = await exportWorkspace(ws.workspaceId, file);
      expect(out).toMatchObject({ attempts: 1, counts: { webhook: 1 } });
      const restored = await restoreWorkspace(file, { name: 'Loopback receiver, restored' });
      expect(restored.counts.webhook).toBe(1);
    } finally {
      delete process.env.WEBHOOKS_ALLOW_LOOPBACK;
    }
    await rm(file, { force: true });
    await expect(exportWorkspace(ws.workspaceId, file)).rejects.toThrow(
      `The export of workspace ${ws.workspaceId} would not restore, the same way 3 times: line 3: '/url' is refused: the URL must use https, not http. The workspace holds a record that breaks a rule restore holds a file to (one written before the rule, or under another setting of it): change it through the API, then export again. Nothing was written to ${file}.`,
    );
    await expect(access(file)).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
