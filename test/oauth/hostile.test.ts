// The hostile-input suite of the token endpoint and the API routes: every case asserts the exact status and body; none may be a 500.
import { generateKeyPair, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntity } from '#lib/store/entity-writes.ts';
import { exchange, expectSpec, expectTokenError, GRANT, newClient, nowS, rsaKeyPair, signRaw, tokenRequest, type TestClient } from './support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp, type TestWorkspace } from '../support/app.ts';

let app: TestApp;
let ws: TestWorkspace;
let client: TestClient;
/** Records every request made to it: the proof that no header made the service fetch anything. */
let recorder: Server;
let recorderUrl: string;
const hits: string[] = [];

beforeAll(async () => {
  app = await startApp();
  ws = await newWorkspace();
  client = await newClient(app, ws, { scopes: ['entities:read', 'notes:read'], defaultScopes: ['entities:read'] });
  recorder = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"keys":[]}');
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await new Promise((resolve) => recorder.close(resolve));
});

const b64 = (s: string) => Buffer.from(s).toString('base64url');

describe('algorithms: RS256 only', () => {
  it.each(['none', 'None', 'NONE', 'nOnE'])('alg %s (unsigned) → jwt_bearer_invalid', async (alg) => {
    expectSpec(await exchange(app, signRaw({ alg, typ: 'JWT' }, client.claims(), '', 'none')), 'invalid');
  });

  it('alg none with a real RS256 signature appended → jwt_bearer_invalid', async () => {
    const real = client.assertion();
    const forged = `${b64(JSON.stringify({ alg: 'none' }))}.${real.split('.')[1]}.${real.split('.')[2]}`;
    expectSpec(await exchange(app, forged), 'invalid');
  });

  it('HS256 signed with the public key (PEM and DER) as the secret → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, signRaw({ alg: 'HS256' }, client.claims(), client.key.publicPem, 'HS256')), 'invalid');
    const der = Buffer.from(client.key.publicPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    expectSpec(await exchange(app, signRaw({ alg: 'HS256' }, client.claims(), der, 'HS256')), 'invalid');
  });

  it.each(['RS384', 'PS256'])('%s signed with the registered private key → jwt_bearer_invalid', async (alg) => {
    expectSpec(await exchange(app, signRaw({ alg }, client.claims(), client.key.privateKey, alg)), 'invalid');
  });

  it('RS256 header over a PS256 signature by the registered key → jwt_bearer_invalid_signature', async () => {
    const pss = signRaw({ alg: 'RS256' }, client.claims(), client.key.privateKey, 'PS256');
    expectSpec(await exchange(app, pss), 'signature');
  });

  it('ES256 with an EC key → jwt_bearer_invalid', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expectSpec(await exchange(app, signRaw({ alg: 'ES256' }, client.claims(), privateKey, 'ES256')), 'invalid');
  });

  it('an access or API token of this service (ES256) used as an assertion → jwt_bearer_invalid', async () => {
    const access = (await exchange(app, client.assertion())).json.access_token;
    expectSpec(await exchange(app, access), 'invalid');
    expectSpec(await exchange(app, ws.token), 'invalid');
  });
});

describe('key-bearing headers are refused, and nothing is fetched', () => {
  it.each([
    ['crit', () => ({ crit: ['exp'] })],
    ['jku', () => ({ jku: `${recorderUrl}/jwks.json` })],
    ['x5u', () => ({ x5u: `${recorderUrl}/cert.pem` })],
    ['jwk', () => ({ jwk: { kty: 'RSA', n: 'AQAB', e: 'AQAB' } })],
    ['x5c', () => ({ x5c: [randomBytes(64).toString('base64')] })],
  ])('%s header, even over a valid RS256 signature by the registered key → jwt_bearer_invalid', async (_name, extra) => {
    const before = hits.length;
    expectSpec(await exchange(app, client.assertion({}, { alg: 'RS256', ...extra() })), 'invalid');
    expect(hits.length).toBe(before);
  });

  it("an attacker's own key embedded as jwk, signing the assertion → jwt_bearer_invalid; jku/x5u pointing at a live server are never requested", async () => {
    const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = attacker.publicKey.export({ format: 'jwk' });
    expectSpec(await exchange(app, signRaw({ alg: 'RS256', jwk }, client.claims(), attacker.privateKey)), 'invalid');
    expectSpec(await exchange(app, signRaw({ alg: 'RS256', jku: `${recorderUrl}/a`, kid: 'k' }, client.claims(), attacker.privateKey)), 'invalid');
    expectSpec(await exchange(app, signRaw({ alg: 'RS256', x5u: `${recorderUrl}/b` }, client.claims(), attacker.privateKey)), 'invalid');
    expect(hits).toEqual([]);
  });
});

describe('kid and keys', () => {
  it.each([
    ['path traversal', '../../../../etc/passwd'],
    ['SQL-shaped', "' OR '1'='1' --"],
    ['key-shaped', 'APP#00000000-0000-4000-8000-000000000000'],
    ['NoSQL-shaped', '{"$ne":null}'],
    ['URL', 'http://127.0.0.1:1/key'],
    ['unknown uuid', '00000000-0000-4000-8000-000000000000'],
  ])('a %s kid over a valid signature names no key of the application → jwt_bearer_invalid_signature', async (_name, kid) => {
    expectSpec(await exchange(app, client.assertion({}, { alg: 'RS256', kid })), 'signature');
  });

  it.each([
    ['a number', 123],
    ['null', null],
    ['empty', ''],
    ['an object', { id: 'x' }],
    ['too long', 'k'.repeat(300)],
  ])('a kid that is %s → jwt_bearer_invalid', async (_name, kid) => {
    expectSpec(await exchange(app, client.assertion({}, { alg: 'RS256', kid })), 'invalid');
  });

  it("another application's key (and its kid), even in the same workspace → jwt_bearer_invalid_signature", async () => {
    const other = await newClient(app, ws);
    expectSpec(await exchange(app, signRaw({ alg: 'RS256' }, client.claims(), other.key.privateKey)), 'signature');
    expectSpec(await exchange(app, signRaw({ alg: 'RS256', kid: other.keyId }, client.claims(), other.key.privateKey)), 'signature');
    expectSpec(await exchange(app, client.assertion({}, { alg: 'RS256', kid: other.keyId })), 'signature');
  });

  it('a removed key → jwt_bearer_invalid_signature', async () => {
    const c = await newClient(app, ws);
    expect((await call(app, 'DELETE', `/oauth2/applications/${c.clientId}/keys/${c.keyId}`, { token: ws.token })).status).toBe(204);
    expectSpec(await exchange(app, c.assertion()), 'signature');
  });

  it('a larger key of another party (4096 bits) → jwt_bearer_invalid_signature', async () => {
    // Generated off the event loop: a synchronous 4096-bit key can outlast the server's keep-alive
    // under load, and the next request then meets a socket the server has just closed.
    const big = await promisify(generateKeyPair)('rsa', { modulusLength: 4096 });
    expectSpec(await exchange(app, signRaw({ alg: 'RS256' }, client.claims(), big.privateKey)), 'signature');
  });
});

describe('aud: one string, exactly the token URL', () => {
  const variants: Array<[string, (aud: string) => unknown]> = [
    ['a trailing slash', (aud) => `${aud}/`],
    ['https instead of http', (aud) => aud.replace(/^http:/, 'https:')],
    ['changed case', (aud) => aud.replace('/oauth2/token', '/OAuth2/Token')],
    ['an upper-case host', (aud) => aud.replace('127.0.0.1', '127.0.0.1'.toUpperCase()).replace('http://', 'HTTP://')],
    ['another port', (aud) => aud.replace(/:(\d+)\//, (_m, p) => `:${Number(p) + 1}/`)],
    ['no port', (aud) => aud.replace(/:\d+\//, '/')],
    ['a query', (aud) => `${aud}?x=1`],
    ['a fragment', (aud) => `${aud}#`],
    ['the /oauth/token URL', (aud) => aud.replace('/oauth2/token', '/oauth/token')],
    ['an array holding it', (aud) => [aud]],
    ['an array holding it and another', (aud) => [aud, 'https://example.com']],
    ['an empty string', () => ''],
    ['a number', () => 1],
    ['missing', () => undefined],
  ];
  it.each(variants)('aud with %s → jwt_bearer_invalid_audience', async (_name, make) => {
    expectSpec(await exchange(app, client.assertion({ aud: make(client.aud) })), 'audience');
  });
});

describe('exp, iat, nbf', () => {
  const raw = (payload: string) => signRaw({ alg: 'RS256' }, payload, client.key.privateKey);
  const base = () => `"iss":"${client.clientId}","sub":"${ws.admin.email}","aud":"${client.aud}"`;

  it('exp missing → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, client.assertion({ exp: undefined })), 'invalid');
  });
  it('exp a string → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, client.assertion({ exp: String(nowS() + 60) })), 'invalid');
  });
  it('exp 1e400 (Infinity once parsed) → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, raw(`{${base()},"iat":${nowS()},"exp":1e400}`)), 'invalid');
  });
  it('exp now → jwt_bearer_expired ("in the future": no leeway on exp)', async () => {
    const now = nowS();
    expectSpec(await exchange(app, client.assertion({ iat: now - 10, exp: now })), 'expired');
  });
  it('exp in the past → jwt_bearer_expired', async () => {
    expectSpec(await exchange(app, client.assertion({ iat: nowS() - 100, exp: nowS() - 40 })), 'expired');
  });
  it('exp too far ahead (exp − iat = 3600 s) → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, client.assertion({ iat: nowS(), exp: nowS() + 3600 })), 'invalid');
  });
  it('exp before iat → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, client.assertion({ iat: nowS() + 25, exp: nowS() + 20 })), 'invalid');
  });
  it('iat in the future (beyond the 30 s skew) → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, client.assertion({ iat: nowS() + 120, exp: nowS() + 180 })), 'invalid');
  });
  it('iat too old (over 300 s) → jwt_bearer_expired', async () => {
    expectSpec(await exchange(app, client.assertion({ iat: nowS() - 400, exp: nowS() + 60 })), 'expired');
  });
  it('iat missing, a string or 1e400 → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, client.assertion({ iat: undefined })), 'invalid');
    expectSpec(await exchange(app, client.assertion({ iat: String(nowS()) })), 'invalid');
    expectSpec(await exchange(app, raw(`{${base()},"iat":1e400,"exp":${nowS() + 60}}`)), 'invalid');
  });
  it('nbf in the future → jwt_bearer_invalid', async () => {
    expectSpec(await exchange(app, client.assertion({ nbf: nowS() + 120 })), 'invalid');
  });
});

describe('iss and jti of non-string types', () => {
  const nonStrings: Array<[string, unknown]> = [
    ['a number', 42],
    ['an object', { id: 'x' }],
    ['null', null],
    ['an array', ['x']],
    ['a boolean', true],
  ];
  it.each(nonStrings)('iss %s → jwt_bearer_invalid_issuer', async (_name, iss) => {
    expectSpec(await exchange(app, client.assertion({ iss })), 'issuer');
  });
  it.each(nonStrings)('jti %s → jwt_bearer_invalid', async (_name, jti) => {
    expectSpec(await exchange(app, client.assertion({ jti })), 'invalid');
  });
  it('the client id inside an array or object iss is not looked up: jwt_bearer_invalid_issuer (the client id as a string still gets a token)', async () => {
    expectSpec(await exchange(app, client.assertion({ iss: [client.clientId] })), 'issuer');
    expectSpec(await exchange(app, client.assertion({ iss: { toString: client.clientId } })), 'issuer');
    expect((await exchange(app, client.assertion())).status).toBe(200);
  });
});

describe('sub', () => {
  it.each([
    ['a number', 42],
    ['an array', [`x@example.com`]],
    ['an object', { email: 'x@example.com' }],
    ['null', null],
    ['missing', undefined],
    ['not an e-mail', 'admin'],
    ['an over-long e-mail', `${'a'.repeat(250)}@example.com`],
    ['injection-shaped', "x@example.com' OR '1'='1"],
    ['unknown', 'nobody@example.com'],
  ])('sub %s → jwt_bearer_invalid_user', async (_name, sub) => {
    expectSpec(await exchange(app, client.assertion({ sub })), 'user');
  });

  it('sub inactive, or a member of another workspace → jwt_bearer_invalid_user', async () => {
    const inactive = await ws.member({ active: false });
    const other = await newWorkspace();
    expectSpec(await exchange(app, client.assertion({ sub: inactive.member.email })), 'user');
    expectSpec(await exchange(app, client.assertion({ sub: other.admin.email })), 'user');
  });
});

describe('scope escalation', () => {
  it('requesting more than the application allows grants only the allowed part', async () => {
    const res = await exchange(app, client.assertion({ scope: 'entities:read write:entities entities:delete notes:delete' }));
    expect(res.status, res.text).toBe(200);
    expect(res.json.scope).toBe('entities:read');
  });
  it.each([['*'], ['admin'], ['write:entities entities:delete'], ['entities:read\tnotes:read']])('scope %j → invalid_scope', async (scope) => {
    expectSpec(await exchange(app, client.assertion({ scope })), 'scope');
  });
  it('an access token whose scope claim is edited is not accepted (401 auth.invalid)', async () => {
    const token: string = (await exchange(app, client.assertion())).json.access_token;
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${b64(JSON.stringify({ ...claims, scope: 'entities:read write:entities' }))}.${s}`;
    expectError(await call(app, 'GET', '/v2/entities', { token: forged }), 'auth.invalid');
  });
  it('on API routes: the assertion itself, or an unsigned access-token-shaped JWT, as Bearer → 401 auth.invalid', async () => {
    const assertion = client.assertion();
    expectError(await call(app, 'GET', '/v2/entities', { token: assertion }), 'auth.invalid');
    const token: string = (await exchange(app, client.assertion())).json.access_token;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    for (const alg of ['none', 'NONE']) {
      expectError(await call(app, 'GET', '/v2/entities', { token: signRaw({ alg, typ: 'JWT' }, claims, '', 'none') }), 'auth.invalid');
    }
    // Signed by the client's own key instead of the service's: still not a token of this service.
    expectError(await call(app, 'GET', '/v2/entities', { token: signRaw({ alg: 'RS256' }, claims, client.key.privateKey) }), 'auth.invalid');
  });
  it('an access token cannot manage applications (admin routes need an API token) → 403 auth.accessDenied', async () => {
    const token: string = (await exchange(app, client.assertion())).json.access_token;
    expectError(await call(app, 'GET', '/oauth2/applications', { token }), 'auth.accessDenied');
  });
});

describe('the form', () => {
  it('repeated fields → invalid_request', async () => {
    const a = client.assertion();
    const res = await tokenRequest(app, `grant_type=${encodeURIComponent(GRANT)}&assertion=${a}&grant_type=client_credentials`);
    expectTokenError(res, 'invalid_request', "The parameter 'grant_type' is repeated; each parameter may appear once.");
  });
  it('a JSON body → invalid_request', async () => {
    const res = await call(app, 'POST', '/oauth2/token', { body: { grant_type: GRANT, assertion: client.assertion() } });
    expectTokenError(res, 'invalid_request', 'The token request must be sent as application/x-www-form-urlencoded.');
  });
  it('an oversize body (1 MiB) → invalid_request', async () => {
    const res = await tokenRequest(app, `grant_type=${encodeURIComponent(GRANT)}&assertion=${'a'.repeat(1024 * 1024)}`);
    expectTokenError(res, 'invalid_request', 'The token request body is larger than 65536 bytes.');
  });
  it('a form declaring another charset → invalid_request', async () => {
    const res = await tokenRequest(app, { grant_type: GRANT, assertion: client.assertion() }, 'application/x-www-form-urlencoded; charset=iso-8859-1');
    expectTokenError(res, 'invalid_request', 'The token request must be sent as application/x-www-form-urlencoded.');
  });
});

describe('malformed JWS structures → jwt_bearer_invalid', () => {
  const valid = () => client.assertion().split('.') as [string, string, string];
  const cases: Array<[string, () => string]> = [
    ['two parts', () => valid().slice(0, 2).join('.')],
    ['four parts', () => [...valid(), 'x'].join('.')],
    ['five parts (JWE-shaped)', () => [b64('{"alg":"RSA-OAEP","enc":"A256GCM"}'), 'a', 'b', 'c', 'd'].join('.')],
    ['dots only', () => '..'],
    ['non-base64url characters', () => `${valid()[0]}.${valid()[1]}!.${valid()[2]}`],
    ['padding characters', () => `${valid()[0]}==.${valid()[1]}.${valid()[2]}`],
    ['header not JSON', () => `${b64('not json')}.${valid()[1]}.${valid()[2]}`],
    ['header a JSON array', () => `${b64('["RS256"]')}.${valid()[1]}.${valid()[2]}`],
    ['header JSON null', () => `${b64('null')}.${valid()[1]}.${valid()[2]}`],
    ['payload not JSON', () => signRaw({ alg: 'RS256' }, 'not json', client.key.privateKey)],
    ['payload a JSON array', () => signRaw({ alg: 'RS256' }, '[1,2]', client.key.privateKey)],
    ['whitespace around it', () => ` ${client.assertion()} `],
    ['an 9 KB assertion', () => `${valid()[0]}.${b64('x'.repeat(9000))}.${valid()[2]}`],
    ['a NUL byte', () => `${valid()[0]}.${valid()[1]}\u0000.${valid()[2]}`],
  ];
  it.each(cases)('%s', async (_name, make) => {
    expectSpec(await exchange(app, make()), 'invalid');
  });

  it('a garbled signature → jwt_bearer_invalid_signature', async () => {
    const [h, p] = valid();
    expectSpec(await exchange(app, `${h}.${p}.${randomBytes(256).toString('base64url')}`), 'signature');
    expectSpec(await exchange(app, `${h}.${p}.AAAA`), 'signature');
    expectSpec(await exchange(app, `${h}.${p}.`), 'signature');
  });
});

describe('replay', () => {
  it('a replayed jti, sequentially → jwt_bearer_invalid', async () => {
    const assertion = client.assertion({ jti: `seq-${Date.now()}` });
    expect((await exchange(app, assertion)).status).toBe(200);
    expectSpec(await exchange(app, assertion), 'invalid');
  });

  it('a replayed jti, concurrently: exactly one of 12 requests gets a token', async () => {
    const assertion = client.assertion({ jti: `conc-${Date.now()}` });
    const results = await Promise.all(Array.from({ length: 12 }, () => exchange(app, assertion)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectSpec(r, 'invalid');
  });
});

describe('tenant isolation with an access token', () => {
  it('a workspace-A access token on workspace-B entity ids → 404 resource.notFound (score, entity, relationships)', async () => {
    const b = await newWorkspace();
    const entity = await createEntity(b.workspaceId, { type: 'product', values: { name: 'B product' }, parentPath: ['data', 'relationships', 0] });
    const tokenA: string = (await exchange(app, client.assertion())).json.access_token;
    for (const path of [`/v2/entities/${entity.id}/score`, `/v2/entities/${entity.id}`, `/v2/entities/${entity.id}/relationships`]) {
      expectError(await call(app, 'GET', path, { token: tokenA }), 'resource.notFound');
      // The same id with B's own API token exists: the 404 is isolation, not absence.
      expect((await call(app, 'GET', path, { token: b.token })).status).toBe(200);
    }
  });

  it('a workspace-A admin token on a workspace-B application → 404 resource.notFound', async () => {
    const b = await newWorkspace();
    const bClient = await newClient(app, b);
    expectError(await call(app, 'GET', `/oauth2/applications/${bClient.clientId}`, { token: ws.token }), 'resource.notFound');
    expectError(await call(app, 'DELETE', `/oauth2/applications/${bClient.clientId}`, { token: ws.token }), 'resource.notFound');
    expectError(await call(app, 'DELETE', `/oauth2/applications/${bClient.clientId}/keys/${bClient.keyId}`, { token: ws.token }), 'resource.notFound');
    expectError(
      await call(app, 'POST', `/oauth2/applications/${bClient.clientId}/keys`, { token: ws.token, body: { publicKey: rsaKeyPair().publicPem } }),
      'resource.notFound',
    );
    expect((await exchange(app, bClient.assertion())).status).toBe(200);
  });
});
