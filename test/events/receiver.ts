// A real webhook receiver for the tests: node:http on loopback, every request checked with the
// Standard Webhooks reference library (standardwebhooks) against the subscription's secret, every
// delivery recorded. It can be told to fail the next N requests, and be killed and brought back on
// the same port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  webhookId: string;
  eventType: string;
  data: Record<string, any>;
  headers: Record<string, string>;
  /** The answer it got: 2xx is a delivery. */
  status: number;
  /** Whether the signature verified with the secret the receiver was given. */
  verified: boolean;
}

export interface Receiver {
  url: string;
  /** All requests, in arrival order. */
  requests: Received[];
  /** Requests answered 2xx with a valid signature. */
  delivered(): Received[];
  /** Verify against this secret (the one the create response showed). */
  useSecret(secret: string): void;
  /** Answer the next `n` requests with `status` (500 by default). */
  failNext(n: number, status?: number): void;
  /** Answer every request with `status` until told otherwise (undefined: back to normal). */
  answerAlways(status: number | undefined): void;
  /** Stop listening and drop open connections (a crashed receiver). */
  kill(): Promise<void>;
  /** Listen again on the same port. */
  revive(): Promise<void>;
  /** Resolves when `test` holds for the delivered requests, or fails after `timeoutMs`. */
  waitFor(test: (delivered: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Received[] = [];
  let secret: string | undefined;
  let failures = 0;
  let failStatus = 500;
  let always: number | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified = false;
      try {
        if (secret) verified = new Webhook(secret).verify(body, headers) !== undefined;
      } catch {
        verified = false;
      }
      let status = verified ? 204 : 401;
      if (always !== undefined) status = always;
      else if (failures > 0) {
        failures--;
        status = failStatus;
      }
      let parsed: any = {};
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = {};
      }
      requests.push({ webhookId: headers['webhook-id'] ?? '', eventType: parsed?.data?.eventType ?? '', data: parsed?.data ?? {}, headers, status, verified });
      res.writeHead(status).end();
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => (server.off('error', reject), resolve()));
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const delivered = () => requests.filter((r) => r.status >= 200 && r.status < 300 && r.verified);
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    delivered,
    useSecret: (s) => (secret = s),
    failNext: (n, status = 500) => ((failures = n), (failStatus = status)),
    answerAlways: (status) => (always = status),
    kill: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    revive: () => listen(port),
    waitFor: async (test, timeoutMs = 20_000) => {
      const until = Date.now() + timeoutMs;
      while (!test(delivered())) {
        if (Date.now() > until)
          throw new Error(
            `receiver: condition not met within ${timeoutMs} ms; delivered ${JSON.stringify(delivered().map((d) => d.eventType))}, all ${requests.length}`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
      return delivered();
    },
  };
}
