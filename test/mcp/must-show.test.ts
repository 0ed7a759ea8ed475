// Issue 14's Must show, end to end: the MCP SDK's own client (Client + StreamableHTTPClientTransport
// with an OAuthClientProvider) gets a 401 from /mcp, discovers the protected resource metadata
// at its well-known address (RFC 9728) and the authorization server's (RFC 8414), registers itself (RFC 7591), sends the
// member's browser — Debian's chromium through playwright-core — to sign in and consent, exchanges
// the code with PKCE for a token bound to {app_url}/mcp (RFC 8707), lists the tools and calls every
// one of them.
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, expectToolError, seedProduct } from './support.ts';
import { PASSWORD, withPassword } from '../authcode/support.ts';
import { call, expectError, newWorkspace, startApp, type TestApp } from '../support/app.ts';
import { launchBrowser, startCallbackServer, type TestBrowser } from '../support/browser.ts';

let app: TestApp;
let browser: TestBrowser;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let callbackUrl: string;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  callback = await startCallbackServer('MCP client');
  callbackUrl = callback.url;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await callback?.close();
  await app?.close();
});

/** An MCP client's OAuth state, in memory; the authorization URL it is sent to is kept for the browser. */
class TestOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(private readonly redirect: string) {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Claude-like assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('Must show: the MCP SDK client connects through OAuth (discovery, dynamic registration, browser consent) and uses every tool', () => {
  it('the whole flow', async () => {
    const ws = await newWorkspace('Acme Product Team');
    const member = await withPassword((await ws.member({ role: 'maker', email: `pm-${Date.now()}@acme.example` })).member);
    const seeded = await seedProduct(app, ws.token);
    const mcpUrl = new URL(`${app.url}/mcp`);
    const provider = new TestOAuthProvider(callbackUrl);

    // First connect: 401 → discovery → registration → the authorization URL for the browser. The
    // 401's challenge comes renamed, as API Gateway passes it on (local/gateway.ts): the client
    // finds the resource's metadata at its well-known address (RFC 9728 section 3), not from the challenge.
    const seen: Array<{ url: string; status: number; challenge: string | null }> = [];
    const watched: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      seen.push({ url: String(input instanceof Request ? input.url : input), status: res.status, challenge: res.headers.get('www-authenticate') });
      return res;
    };
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: watched });
    await expect(new Client({ name: 'assistant', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(seen.slice(0, 2)).toEqual([
      { url: mcpUrl.href, status: 401, challenge: null },
      { url: `${app.url}/.well-known/oauth-protected-resource/mcp`, status: 200, challenge: null },
    ]);
    expect(provider.client?.client_id).toMatch(/^dyn-/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${app.url}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcpUrl.href);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    // The member in a real browser: the sign-in page asks for the workspace too (the client belongs to none).
    const { page } = browser;
    await page.goto(authorizationUrl.href);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in to your workspace');
    await page.getByLabel('Workspace ID').fill(ws.workspaceId);
    await page.getByLabel('E-mail address').fill(member.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await browser.screenshot('mcp-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Claude-like assistant wants to access Acme Product Team' }).waitFor();
    await expect(page.getByText('Unverified client: it registered itself').count()).resolves.toBe(1);
    await browser.screenshot('mcp-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(callbackUrl));
    const code = new URL(page.url()).searchParams.get('code')!;
    await first.finishAuth(code);
    expect(provider.saved?.token_type).toBe('Bearer');

    // Connected: exactly the tools, each called.
    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'get_customer_score',
        'rank_by_customer_score',
        'search_entities',
        'get_entity',
        'get_customer_demand',
        'rank_plan_by_customer_score',
        'list_releases_of_area',
        'list_objectives',
        'list_notes',
        'get_note',
        'create_note',
        'rate_link',
      ]);

      // rank_by_customer_score under the seeded product: its features in score order, equal to GET …/score.
      const ranked = (await callTool(client, 'rank_by_customer_score', { parentId: seeded.product, type: 'feature' })).structuredContent.entities as Array<{
        id: string;
        name: string;
        score: number;
      }>;
      expect(ranked.map((r) => r.name)).toEqual(['Apple Pay', 'Gift cards', 'Invoices', 'Wallets']);
      for (const r of ranked) {
        const rest = await call(app, 'GET', `/v2/entities/${r.id}/score`, { token: ws.token });
        expect(r.score).toBe(rest.json.data.fields.score);
      }
      expect(ranked.map((r) => r.score)).toEqual([5, 2, 1, 0]);

      // create_note then get_customer_score: the exact change, the importance's weight (critical: 3).
      const feature = seeded.features['Gift cards']!;
      const before = (await callTool(client, 'get_customer_score', { entityId: feature })).structuredContent.score as number;
      const created = await callTool(client, 'create_note', {
        name: 'Acme wants gift cards',
        content: 'From the QBR',
        customer: { id: seeded.company },
        links: [{ entityId: feature, importance: 'critical' }],
      });
      expect(created.isError, JSON.stringify(created)).toBeFalsy();
      const after = (await callTool(client, 'get_customer_score', { entityId: feature })).structuredContent;
      expect(after).toMatchObject({ id: feature, name: 'Gift cards', type: 'feature', score: before + 3 });

      const noteId = created.structuredContent.note.id as string;
      expect((await callTool(client, 'get_note', { noteId })).structuredContent.note.fields).toEqual({
        name: 'Acme wants gift cards',
        content: 'From the QBR',
        creator: { id: member.id, email: member.email },
        processed: false,
        archived: false,
      });
      expect((await callTool(client, 'list_notes', {})).structuredContent.notes.map((n: any) => n.id)).toContain(noteId);
      expect((await callTool(client, 'search_entities', { types: ['feature'], name: 'gift' })).structuredContent.entities.map((e: any) => e.id)).toEqual([
        feature,
      ]);
      expect((await callTool(client, 'get_entity', { entityId: feature })).structuredContent.entity.fields.name).toBe('Gift cards');
      const rerated = await callTool(client, 'rate_link', { noteId, entityId: feature, importance: 'nice to have' });
      expect(rerated.structuredContent).toMatchObject({ created: false, importance: 'nice to have' });
      expect((await callTool(client, 'get_customer_score', { entityId: feature })).structuredContent.score).toBe(before + 1);

      // Another workspace's ids are not found through this grant.
      const other = await newWorkspace('Other team');
      const otherProduct = (await call(app, 'POST', '/v2/entities', { token: other.token, body: { data: { type: 'product', fields: { name: 'Theirs' } } } }))
        .json.data.id;
      expectToolError(await callTool(client, 'get_customer_score', { entityId: otherProduct }), 'resource.notFound');
    } finally {
      await client.close();
    }

    // The token is the MCP server's: the REST API refuses it.
    expectError(await call(app, 'GET', `/v2/entities/${seeded.product}/score`, { token: provider.saved!.access_token }), 'auth.invalid');
  });
});
