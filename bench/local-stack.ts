// The local stack a benchmark measures (bench/score.ts, bench/load.ts): a throwaway service key,
// DynamoDB Local with the table, and the gateway serving every route on a free port; the
// environment points the handlers at them. The caller sets TABLE_NAME before importing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateServiceKeyMaterial } from '#lib/auth/service-key-file.ts';
import { tableName } from '#lib/store/client.ts';
import { ensureTable, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { createGateway, type ExtraRoutes } from '../local/gateway.ts';

/** Listens on a free loopback port; answers the server's base address. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections?.();
}

export interface LocalStack {
  /** {app_url}; the API is under `${appUrl}/v2`. */
  appUrl: string;
  stop: () => Promise<void>;
}

/** `extraRoutes`: bench-only routes the gateway serves beside the route table (local/gateway.ts). */
export async function startLocalStack(name: string, extraRoutes?: ExtraRoutes): Promise<LocalStack> {
  const dir = await mkdtemp(join(tmpdir(), `pm-api-${name}-`));
  const keyFile = join(dir, 'service-key.json');
  await writeFile(keyFile, JSON.stringify(await generateServiceKeyMaterial()));
  const ddb = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = ddb.endpoint;
  process.env.SERVICE_KEY_FILE = keyFile;
  await ensureTable(ddb.endpoint, tableName());
  const gateway = createGateway(extraRoutes ? { extraRoutes } : {});
  const appUrl = await listen(gateway);
  process.env.PUBLIC_APP_URL = appUrl;
  process.env.PUBLIC_BASE_URL = `${appUrl}/v2`;
  return {
    appUrl,
    stop: async () => {
      await closeServer(gateway);
      await ddb.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
