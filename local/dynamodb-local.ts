// Launches DynamoDB Local, the official emulator whose jar ships in the npm package
// amplify-dynamodb-simulator. Needs a Java 17+ runtime.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { clientBounds } from '#lib/aws-clients.ts';
import { config } from '#lib/config.ts';
import { createTableInput, TABLE } from '#lib/store/table.ts';

export const JAVA_MISSING =
  'DynamoDB Local needs a Java runtime, version 17 or newer, and none was found: install one (for example `apt-get install openjdk-17-jre-headless`, or set JAVA_HOME) and run again.';

/** The java executable to use, or an explanation of why there is none. */
export function findJava(): { java: string } | { problem: string } {
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
  const out = spawnSync(java, ['-version'], { encoding: 'utf8' });
  if (out.error || out.status !== 0) return { problem: JAVA_MISSING };
  const m = /version "(\d+)(?:\.(\d+))?/.exec(out.stderr + out.stdout);
  const major = m ? (m[1] === '1' ? Number(m[2]) : Number(m[1])) : NaN;
  if (!(major >= 17))
    return {
      problem: `DynamoDB Local needs Java 17 or newer, and ${java} is version ${m?.[1] ?? 'unknown'}: install a newer runtime (or point JAVA_HOME at one) and run again.`,
    };
  return { java };
}

export function emulatorDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(true));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(false)));
  });
}

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A client for the emulator's table calls (the store's items go through lib/store/client.ts), bounded as every client is. */
function localClient(endpoint: string): DynamoDBClient {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: config.localDynamodbCredentials, ...clientBounds() });
}

/**
 * Starts the emulator on `port` (0: a free one). `dbPath` keeps data on disk; without it the
 * database is in memory (tests). Resolves once it answers ListTables.
 */
export async function startDynamoDbLocal(options: { port?: number; dbPath?: string; java?: string } = {}): Promise<DynamoDbLocal> {
  const found = options.java ? { java: options.java } : findJava();
  if ('problem' in found) throw new Error(found.problem);
  const port = options.port || (await freePort());
  const dir = emulatorDir();
  const args = [
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-Xss1m',
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    ...(options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory']),
  ];
  const child = spawn(found.java, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output = (output + d).slice(-4000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const started = Date.now();
  for (;;) {
    const state = await Promise.race([exited.then((code) => ({ code })), new Promise((r) => setTimeout(r, 150, 'poll'))]);
    if (typeof state === 'object' && state !== null) {
      throw new Error(`DynamoDB Local exited (code ${(state as { code: number | null }).code}) before it was ready:\n${output}`);
    }
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch {
      if (Date.now() - started > 30_000) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not answer on port ${port} within 30 s:\n${output}`);
      }
    }
  }
  client.destroy();
  return {
    endpoint,
    port,
    process: child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Creates the table (same definition as the stack, TTL enabled) unless it exists; adds the global
 * indexes lib/store/table.ts declares and an older local table lacks (one per UpdateTable, as
 * DynamoDB allows), and switches on the stream of a table made before it was part of the
 * definition. Items written before an index existed get its keys from
 * `npm run admin -- index backfill`.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'exists' | 'updated'> {
  const client = localClient(endpoint);
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (!Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.stream } }));
    }
    const have = new Set((Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    const wanted = createTableInput(tableName);
    const missing = wanted.GlobalSecondaryIndexes.filter((g) => !have.has(g.IndexName));
    for (const index of missing) {
      const attrs: string[] = index.KeySchema.map((k) => k.AttributeName);
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: wanted.AttributeDefinitions.filter((a) => attrs.includes(a.AttributeName)),
          GlobalSecondaryIndexUpdates: [{ Create: index }],
        }),
      );
    }
    return missing.length ? 'updated' : 'exists';
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true } }));
    return 'created';
  } finally {
    client.destroy();
  }
}
