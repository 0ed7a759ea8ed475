import { join, resolve } from 'node:path';

export const PROJECT_ROOT = join(import.meta.dirname, '..');
/** Where `npm start` keeps its state; PM_LOCAL_DIR moves it (relative to the project's directory, where npm runs scripts; tests use a temporary one). */
export const LOCAL_DIR = process.env.PM_LOCAL_DIR ? resolve(process.env.PM_LOCAL_DIR) : join(PROJECT_ROOT, '.local');
export const DEV_FILE = join(LOCAL_DIR, 'dev.json');
export const SERVICE_KEY_FILE = join(LOCAL_DIR, 'service-key.json');
export const DB_DIR = join(LOCAL_DIR, 'dynamodb');
export const LOCAL_TABLE = 'pm-api';

/** What `npm start` writes to .local/dev.json (the URLs, workspace and token first; README.md lists them). */
export interface DevFacts {
  baseUrl: string;
  appUrl: string;
  workspaceId: string;
  adminEmail: string;
  adminToken: string;
  adminTokenId: string;
  dynamodbEndpoint: string;
  tableName: string;
  serviceKeyFile: string;
}
