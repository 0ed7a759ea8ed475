// The local gateway and every worker of lib/workers.ts (the stream and delivery workers, the sweeper
// of pending work) over a DynamoDB endpoint and table that exist already. `npm start` runs it once
// it has started DynamoDB Local; the crash test (test/score/sigkill.test.ts) runs this module as its
// own child process and kills it: `node --import tsx local/serve.ts` with DYNAMODB_ENDPOINT,
// TABLE_NAME, SERVICE_KEY_FILE and PORT (0: a free one) set, prints `listening <app_url>` once it
// serves (docs/operations.md, "Running the gateway and workers alone").
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { config } from '#lib/config.ts';
import { createGateway } from './gateway.ts';
import { startLocalWorkers, type LocalWorkers } from './workers.ts';

export interface Serving {
  server: Server;
  workers: LocalWorkers;
  /** {app_url} of the gateway. */
  url: string;
}

/** Starts the workers, then the gateway on `port` (0: a free one) of `host` (every interface unless given). */
export async function serve(options: { endpoint: string; tableName: string; port: number; host?: string }): Promise<Serving> {
  const workers = await startLocalWorkers({ endpoint: options.endpoint, tableName: options.tableName });
  const server = createGateway();
  await new Promise<void>((resolve) => (options.host ? server.listen(options.port, options.host, resolve) : server.listen(options.port, resolve)));
  const { port } = server.address() as AddressInfo;
  return { server, workers, url: `http://${options.host ?? 'localhost'}:${port}` };
}

async function main(): Promise<void> {
  const endpoint = config.dynamodbEndpoint;
  if (!endpoint) throw new Error('DYNAMODB_ENDPOINT names the DynamoDB endpoint to serve from');
  const serving = await serve({ endpoint, tableName: config.tableName, port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  const stop = () => {
    serving.server.close();
    void serving.workers.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`listening ${serving.url}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(`local/serve.ts failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
