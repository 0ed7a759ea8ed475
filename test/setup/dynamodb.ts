// Global setup: one in-memory DynamoDB Local on a free port for the whole run, the table created
// from the same definition as the stack, and a throwaway service key. Test files read these
// through test/setup/env.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { generateServiceKeyMaterial } from '../../lib/auth/service-key-file.ts';
import { ensureTable, findJava, startDynamoDbLocal } from '../../local/dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    tableName: string;
    serviceKeyFile: string;
  }
}

export default async function setup(project: TestProject) {
  const java = findJava();
  if ('problem' in java) throw new Error(java.problem);
  const ddb = await startDynamoDbLocal({ java: java.java });
  const tableName = 'pm-api-test';
  await ensureTable(ddb.endpoint, tableName);
  const dir = await mkdtemp(join(tmpdir(), 'pm-api-test-'));
  const serviceKeyFile = join(dir, 'service-key.json');
  await writeFile(serviceKeyFile, JSON.stringify(await generateServiceKeyMaterial()));
  project.provide('dynamodbEndpoint', ddb.endpoint);
  project.provide('tableName', tableName);
  project.provide('serviceKeyFile', serviceKeyFile);
  return async () => {
    await ddb.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
