// `npm start`: DynamoDB Local (data kept under .local/), the table, the demo workspace, the local
// gateway on http://localhost:3000, and the workers in-process (local/serve.ts, local/workers.ts:
// webhooks and the sweeper of pending work). Ctrl-C stops everything it started.
import { mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join, relative } from 'node:path';
import { ensureServiceKeyFile } from '#lib/auth/service-key-file.ts';
import { config } from '#lib/config.ts';
import { backfillIndexes } from '#lib/store/backfill.ts';
import { ensureTable, findJava, portInUse, startDynamoDbLocal } from './dynamodb-local.ts';
import { DB_DIR, DEV_FILE, LOCAL_DIR, LOCAL_TABLE, PROJECT_ROOT, SERVICE_KEY_FILE } from './paths.ts';
import { ensureDemo } from './seed.ts';
import { serve } from './serve.ts';
import type { LocalWorkers } from './workers.ts';

async function main() {
  const java = findJava();
  if ('problem' in java) {
    console.error(java.problem);
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 3000);
  if (await portInUse(port)) {
    console.error(`Port ${port} is already in use (is another \`npm start\` running?). Stop it, or choose another port with PORT=...`);
    process.exit(1);
  }
  await mkdir(DB_DIR, { recursive: true });
  // The state holds the service's private key and an admin token: wherever PM_LOCAL_DIR puts it,
  // git leaves it out (as Python's venv does for itself).
  await writeFile(join(LOCAL_DIR, '.gitignore'), '# Written by npm start: the service key and tokens stay out of git.\n*\n');
  await ensureServiceKeyFile(SERVICE_KEY_FILE);

  const wanted = Number(process.env.DYNAMODB_PORT ?? 8000);
  const ddbPort = (await portInUse(wanted)) ? 0 : wanted;
  const ddb = await startDynamoDbLocal({ port: ddbPort, dbPath: DB_DIR, java: java.java });
  // Set once the gateway listens (and the workers run); a stop before then has only DynamoDB Local to end.
  const gateway: { server?: Server; workers?: LocalWorkers } = {};
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    gateway.server?.close();
    const pending = await gateway.workers?.stop();
    if (pending) console.error(`${pending} webhook deliveries were still pending and are dropped (the local queue lives in memory).`);
    await ddb.stop();
    process.exit(code);
  };
  ddb.process.once('exit', () => {
    if (!stopping) {
      console.error('DynamoDB Local stopped unexpectedly; shutting down.');
      void stop(1);
    }
  });

  const appUrl = `http://localhost:${port}`;
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: ddb.endpoint,
    TABLE_NAME: process.env.TABLE_NAME || LOCAL_TABLE,
    SERVICE_KEY_FILE,
    PUBLIC_APP_URL: appUrl,
    PUBLIC_BASE_URL: `${appUrl}/v2`,
    // --- Webhooks: local development may deliver to http receivers on loopback (never in the stack).
    WEBHOOKS_ALLOW_LOOPBACK: '1',
  });
  // A local table from before an index was added gets the index, and its items their entries.
  if ((await ensureTable(ddb.endpoint, config.tableName)) === 'updated') await backfillIndexes({});
  const { facts, created } = await ensureDemo(DEV_FILE, {
    baseUrl: config.baseUrl,
    appUrl: config.appUrl,
    dynamodbEndpoint: ddb.endpoint,
    tableName: config.tableName,
    serviceKeyFile: SERVICE_KEY_FILE,
  });

  // The workers of lib/workers.ts (webhooks on DynamoDB Local's stream, the sweeper of pending work), then the gateway.
  const serving = await serve({ endpoint: ddb.endpoint, tableName: config.tableName, port });
  Object.assign(gateway, serving);
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  // As one would type it in the project's directory; PM_LOCAL_DIR elsewhere, as it is.
  const devFileAsTyped = DEV_FILE.startsWith(`${PROJECT_ROOT}/`) ? `./${relative(PROJECT_ROOT, DEV_FILE)}` : DEV_FILE;
  console.log(
    [
      `API        ${facts.baseUrl}   (token endpoint ${facts.appUrl}/oauth2/token)`,
      `DynamoDB   ${ddb.endpoint}   table ${facts.tableName}, data in ${LOCAL_DIR}`,
      `Workspace  ${facts.workspaceId}${created ? ' (new demo workspace)' : ''}`,
      `Admin      ${facts.adminEmail}`,
      `Token      ${facts.adminToken}`,
      `Pages      ${facts.appUrl}/sign-in?workspace=${facts.workspaceId}   (set a password first: README.md, "Pages")`,
      `These facts are in ${DEV_FILE}. Try:`,
      `  curl -s -H "Authorization: Bearer $(node -p "require('${devFileAsTyped}').adminToken")" ${facts.baseUrl}/entities`,
      `Webhooks   stream and delivery workers running; http://127.0.0.1 receivers allowed (README.md, "Webhooks")`,
      `Sweeper    pending work finished every ${config.sweepIntervalMs / 1000} s (SWEEP_INTERVAL_MS)`,
      'Ctrl-C stops everything.',
    ].join('\n'),
  );
}

main().catch((err) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
