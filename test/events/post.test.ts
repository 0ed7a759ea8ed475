// The webhook POST (lib/events/post.ts) against real loopback servers: connected to the checked
// address whatever the URL's name, redirects not followed, answers read only up to 4 KiB, a time limit.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, post, retryAfterSeconds } from '#lib/events/post.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => (s.closeAllConnections(), s.close(r)))));
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<number> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

const LOOPBACK = { address: '127.0.0.1', family: 4 as const };

describe('webhook POST', () => {
  it('goes to the checked address with the URL host in Host, the JSON body and the given headers', async () => {
    let seen: { host?: string; type?: string; sig?: string; body: string; path?: string } = { body: '' };
    const port = await serve((req, res, body) => {
      seen = { host: req.headers.host, type: req.headers['content-type'], sig: req.headers['webhook-signature'] as string, body, path: req.url };
      res.writeHead(204).end();
    });
    const result = await post({
      url: new URL(`http://hooks.example.com:${port}/pb?x=1`),
      address: LOOPBACK,
      headers: { 'webhook-signature': 'v1,abc' },
      body: '{"data":{}}',
    });
    expect(result).toEqual({ kind: 'response', status: 204, retryAfterSeconds: undefined, bytesRead: 0 });
    expect(seen).toEqual({ host: `hooks.example.com:${port}`, type: 'application/json', sig: 'v1,abc', body: '{"data":{}}', path: '/pb?x=1' });
  });

  it('a redirect is an answer like any other, never followed', async () => {
    let followed = false;
    const target = await serve((_req, res) => ((followed = true), res.writeHead(200).end()));
    const port = await serve((_req, res) => res.writeHead(307, { location: `http://127.0.0.1:${target}/` }).end());
    expect(await post({ url: new URL(`http://127.0.0.1:${port}/`), address: LOOPBACK, headers: {}, body: '{}' })).toMatchObject({
      kind: 'response',
      status: 307,
    });
    expect(followed).toBe(false);
  });

  it('reads at most a few KiB of a large answer, and takes Retry-After', async () => {
    const port = await serve((_req, res) => {
      res.writeHead(503, { 'retry-after': '120' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const write = () => res.write(chunk) && setImmediate(write);
      write();
    });
    const result = await post({ url: new URL(`http://127.0.0.1:${port}/`), address: LOOPBACK, headers: {}, body: '{}' });
    expect(result).toMatchObject({ kind: 'response', status: 503, retryAfterSeconds: 120 });
    expect((result as { bytesRead: number }).bytesRead).toBeGreaterThanOrEqual(MAX_RESPONSE_BYTES);
    expect((result as { bytesRead: number }).bytesRead).toBeLessThanOrEqual(128 * 1024);
  });

  it('no answer within the time limit, or nobody listening, is a failure that says so', async () => {
    const port = await serve(() => undefined);
    expect(await post({ url: new URL(`http://127.0.0.1:${port}/`), address: LOOPBACK, headers: {}, body: '{}', timeoutMs: 200 })).toEqual({
      kind: 'failed',
      detail: 'no answer within 200 ms',
    });
    const closed = await serve(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    expect(await post({ url: new URL(`http://127.0.0.1:${closed}/`), address: LOOPBACK, headers: {}, body: '{}' })).toEqual({
      kind: 'failed',
      detail: 'connection failed (ECONNREFUSED)',
    });
  });

  it('Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterSeconds('30')).toBe(30);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 1)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(60);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(undefined)).toBeUndefined();
  });
});
