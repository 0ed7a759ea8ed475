// The "must show": a key made by `openssl genpkey`, an assertion built and signed by a shell
// script with `openssl dgst -sha256 -sign` (no project code, no jose), exchanged for a token that
// reads a customer score.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntity } from '#lib/store/entity-writes.ts';
import { createApp } from './support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';

let app: TestApp;
const dir = mkdtempSync(join(tmpdir(), 'pm-openssl-'));
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What an integration's shell script does: base64url the header and claims, sign with openssl, POST with curl. */
const SCRIPT = String.raw`
set -euo pipefail
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }
now=$(date +%s)
header=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)
claims=$(printf '{"iss":"%s","sub":"%s","aud":"%s","iat":%d,"exp":%d,"jti":"%s","scope":"entities:read"}' \
  "$CLIENT_ID" "$SUB" "$TOKEN_URL" "$now" "$((now + 60))" "$(openssl rand -hex 16)" | b64url)
signature=$(printf '%s.%s' "$header" "$claims" | openssl dgst -sha256 -sign private.pem | b64url)
curl -sS -X POST "$TOKEN_URL" \
  -H 'Content-Type: application/x-www-form-urlencoded' \
  --data-urlencode 'grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer' \
  --data-urlencode "assertion=$header.$claims.$signature"
`;

describe('an openssl-made key and an openssl-signed assertion', () => {
  it('get a token that reads a customer score (GET /v2/entities/{id}/score)', async () => {
    const ws = await newWorkspace();
    const other = await newWorkspace();
    execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'private.pem'], { cwd: dir, stdio: 'ignore' });
    execFileSync('openssl', ['pkey', '-in', 'private.pem', '-pubout', '-out', 'public.pem'], { cwd: dir, stdio: 'ignore' });
    const clientId = await createApp(app, ws, { name: 'Shell integration', scopes: ['entities:read'] });
    const upload = await call(app, 'POST', `/oauth2/applications/${clientId}/keys`, {
      token: ws.token,
      body: { publicKey: readFileSync(join(dir, 'public.pem'), 'utf8') },
    });
    expect(upload.status, upload.text).toBe(201);

    // Asynchronously: the gateway answering curl runs in this process.
    const { stdout: out } = await promisify(execFile)('bash', ['-c', SCRIPT], {
      cwd: dir,
      env: { PATH: process.env.PATH, CLIENT_ID: clientId, SUB: ws.admin.email, TOKEN_URL: `${app.url}/oauth2/token` },
      encoding: 'utf8',
      timeout: 20_000,
    });
    const granted = JSON.parse(out);
    expect(granted).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 300, scope: 'entities:read' });

    // A product rated "critical" (weight 3) by one customer, through the public API with the admin's API token.
    const made = async (path: string, body: unknown) => {
      const res = await call(app, 'POST', path, { token: ws.token, body });
      expect(res.status, res.text).toBe(201);
      return res.json.data.id as string;
    };
    const product = await made('/v2/entities', { data: { type: 'product', fields: { name: 'Scored product' } } });
    const customer = await made('/v2/entities', { data: { type: 'company', fields: { name: 'Acme' } } });
    await made('/v2/notes', {
      data: {
        type: 'textNote',
        fields: { name: 'Acme needs this' },
        relationships: [
          { type: 'customer', target: { type: 'company', id: customer } },
          { type: 'link', target: { id: product }, importance: 'critical' },
        ],
      },
    });
    const score = await call(app, 'GET', `/v2/entities/${product}/score`, { token: granted.access_token });
    expect(score.status, score.text).toBe(200);
    expect(score.json.data).toMatchObject({ id: product, fields: { score: 3 } });

    // The same token on another workspace's entity: 404, never 403.
    const foreign = await createEntity(other.workspaceId, { type: 'product', values: { name: 'Foreign' }, parentPath: ['data', 'relationships', 0] });
    expectError(await call(app, 'GET', `/v2/entities/${foreign.id}/score`, { token: granted.access_token }), 'resource.notFound');
  });
});
