// Issue 12's Must show, end to end: a real browser (Debian's chromium via playwright-core) signs a
// member in and approves the consent page; the client side is oauth4webapi, a standard library —
// discovery from the RFC 8414 metadata, PKCE, the code exchange, a customer score read with the
// access token, a refresh, and the replay of the old refresh token that revokes the family.
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCodeClient, PASSWORD, withPassword } from './support.ts';
import { call, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { launchBrowser, startCallbackServer, type TestBrowser } from '../support/browser.ts';

let app: TestApp;
let browser: TestBrowser;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let callbackUrl: string;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  callback = await startCallbackServer('Roadmap Sync');
  callbackUrl = callback.url;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await app?.close();
});

const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** A product with a feature that one customer rated critical: its score is 3. */
async function seedScore(token: string): Promise<string> {
  const create = async (path: string, data: unknown) => {
    const res = await call(app, 'POST', path, { token, body: { data } });
    expect(res.status, res.text).toBe(201);
    return res.json.data.id as string;
  };
  const product = await create('/v2/entities', { type: 'product', fields: { name: 'Checkout' } });
  const feature = await create('/v2/entities', {
    type: 'feature',
    fields: { name: 'Apple Pay' },
    relationships: [{ type: 'parent', target: { id: product } }],
  });
  const company = await create('/v2/entities', { type: 'company', fields: { name: 'Acme Corp' } });
  await create('/v2/notes', {
    type: 'textNote',
    fields: { name: 'Needs Apple Pay' },
    relationships: [
      { type: 'customer', target: { type: 'company', id: company } },
      { type: 'link', target: { id: feature }, importance: 'critical' },
    ],
  });
  return product;
}

describe('Must show: browser sign-in and consent, oauth4webapi code exchange with PKCE, refresh, replay revokes the family', () => {
  it('the whole flow', async () => {
    const ws = await newWorkspace('Acme Product Team');
    const member = await withPassword((await ws.member({ role: 'maker', email: 'ann.smith@example.com' })).member);
    const product = await seedScore(ws.token);
    const registered = await newCodeClient(app, ws, {
      public: true,
      name: 'Roadmap Sync',
      scopes: ['entities:read', 'notes:read'],
      redirectUris: [callbackUrl],
    });

    // Discovery (RFC 8414) from the issuer {app_url}.
    const issuer = new URL(app.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    expect(as.authorization_endpoint).toBe(`${app.url}/oauth/authorize`);
    const client: oauth.Client = { client_id: registered.clientId };
    const clientAuth = oauth.None();

    // PKCE and the authorization URL.
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    authorizationUrl.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: callbackUrl,
      scope: 'entities:read notes:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    // The member in a real browser: sign-in page, then consent page.
    const { page } = browser;
    await page.goto(authorizationUrl.href);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in to Acme Product Team');
    await page.getByLabel('E-mail address').fill(member.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await browser.screenshot('oauth-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Roadmap Sync wants to access Acme Product Team' }).waitFor();
    const permissions = await page.getByRole('list', { name: 'Permissions requested' }).getByRole('listitem').allTextContents();
    expect(permissions).toEqual([
      'Read entitiesSee products, components, features and customers, their fields and customer scoresentities:read',
      'Read notesRead customer feedback notes and see which features they are linked tonotes:read',
    ]);
    await expect(page.getByText(`Signed in as ${member.email}`).count()).resolves.toBe(1);
    await browser.screenshot('oauth-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(callbackUrl));

    // Back at the client: the authorization response, then the code exchange with the verifier.
    const callbackParams = oauth.validateAuthResponse(as, client, new URL(page.url()), state);
    const exchanged = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callbackParams, callbackUrl, verifier, insecure),
    );
    expect(exchanged).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'entities:read notes:read' });

    // A customer score read with the access token.
    const score = await call(app, 'GET', `/v2/entities/${product}/score`, { token: exchanged.access_token });
    expect(score.status, score.text).toBe(200);
    expect(score.json.data).toMatchObject({ id: product, type: 'customerScore', fields: { score: 3 } });

    // Refresh: a new access token and a new refresh token.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, exchanged.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(exchanged.refresh_token);
    expect((await call(app, 'GET', `/v2/entities/${product}/score`, { token: refreshed.access_token })).status).toBe(200);

    // Replaying the old refresh token: refused, and the family is revoked.
    const replay = oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, clientAuth, exchanged.refresh_token!, insecure),
    );
    await expect(replay).rejects.toMatchObject({ error: 'invalid_grant' });
    const after = await call(app, 'GET', `/v2/entities/${product}/score`, { token: refreshed.access_token });
    expect(after.status).toBe(401);
    expect(after.json.errors[0]).toMatchObject({ code: 'auth.invalid', detail: 'The bearer token has been revoked.' });
  });

  it('revocation with oauth4webapi: the refresh token revoked, its access token gets 401', async () => {
    const ws = await newWorkspace('Acme Product Team');
    const member = await withPassword((await ws.member()).member);
    const registered = await newCodeClient(app, ws, { name: 'Roadmap Sync', scopes: ['entities:read'], redirectUris: [callbackUrl] });
    const issuer = new URL(app.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client: oauth.Client = { client_id: registered.clientId };
    const clientAuth = oauth.ClientSecretBasic(registered.clientSecret!);
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: callbackUrl,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    // The same browser: its session from the first test belongs to another workspace, so the sign-in page shows again.
    const page = await browser.context.newPage();
    await page.goto(url.href);
    await page.getByLabel('E-mail address').fill(member.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((u) => u.href.startsWith(callbackUrl));
    const params = oauth.validateAuthResponse(as, client, new URL(page.url()), oauth.expectNoState);
    await page.close();

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, callbackUrl, verifier, insecure),
    );
    expect((await call(app, 'GET', '/v2/entities', { token: tokens.access_token })).status).toBe(200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, tokens.refresh_token!, insecure));
    expect((await call(app, 'GET', '/v2/entities', { token: tokens.access_token })).status).toBe(401);
  });
});
