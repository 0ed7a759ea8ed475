// The MCP tests' helpers: the SDK's own client over its Streamable HTTP transport, and a seeded
// product whose features have known scores.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'vitest';
import { call, type TestApp } from '../support/app.ts';

/** A connected SDK client; with `token`, every request carries it (the way a script uses an API token). */
export async function mcpClient(app: TestApp, options: { token?: string; transport?: StreamableHTTPClientTransportOptions } = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
    ...(options.token ? { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } } : {}),
    ...options.transport,
  });
  await client.connect(transport);
  return client;
}

/** A tool call's result, typed for the tests. */
interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** Asserts a tool error with the envelope's code (and detail and `source`, when given). */
export function expectToolError(result: ToolResult, code: string, detail?: string | RegExp, source?: Record<string, string>): void {
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const [error] = result.structuredContent.errors;
  expect(error.code).toBe(code);
  if (detail !== undefined) expect(error.detail).toMatch(detail);
  if (source !== undefined) expect(error.source).toEqual(source);
  expect(result.content[0]!.text).toBe(`${code}: ${error.detail}`);
}

export async function create(app: TestApp, token: string, path: string, data: unknown): Promise<string> {
  const res = await call(app, 'POST', path, { token, body: { data } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as string;
}

export interface Seeded {
  product: string;
  component: string;
  features: Record<string, string>;
  company: string;
  user: string;
}

/**
 * A product "Checkout" with a component "Payments" and four features rated by two customers:
 * Apple Pay 3 + 2 = 5, Gift cards 2, Invoices 1, Wallets 0.
 */
export async function seedProduct(app: TestApp, token: string): Promise<Seeded> {
  const product = await create(app, token, '/v2/entities', { type: 'product', fields: { name: 'Checkout' } });
  const component = await create(app, token, '/v2/entities', {
    type: 'component',
    fields: { name: 'Payments' },
    relationships: [{ type: 'parent', target: { id: product } }],
  });
  const features: Record<string, string> = {};
  for (const [name, parent] of [
    ['Apple Pay', component],
    ['Gift cards', product],
    ['Invoices', component],
    ['Wallets', product],
  ] as const) {
    features[name] = await create(app, token, '/v2/entities', {
      type: 'feature',
      fields: { name },
      relationships: [{ type: 'parent', target: { id: parent } }],
    });
  }
  const company = await create(app, token, '/v2/entities', { type: 'company', fields: { name: 'Acme Corp' } });
  const user = await create(app, token, '/v2/entities', { type: 'user', fields: { name: 'Bea Buyer', email: 'Bea.Buyer@example.com' } });
  const note = (name: string, customer: string, links: Array<[string, string]>) =>
    create(app, token, '/v2/notes', {
      type: 'textNote',
      fields: { name },
      relationships: [{ type: 'customer', target: { id: customer } }, ...links.map(([id, importance]) => ({ type: 'link', target: { id }, importance }))],
    });
  await note('Acme call', company, [
    [features['Apple Pay']!, 'critical'],
    [features['Wallets']!, 'not important'],
  ]);
  await note('Bea interview', user, [
    [features['Apple Pay']!, 'important'],
    [features['Gift cards']!, 'important'],
    [features['Invoices']!, 'nice to have'],
  ]);
  return { product, component, features, company, user };
}
