// An HTTP proxy in front of DynamoDB Local that injects faults where the deployed code meets them:
// on the wire, between the SDK's request handler and the table. Every call the store makes reaches
// it (tests point DYNAMODB_ENDPOINT at it, and the store makes its client for that endpoint), so the
// retries, timeouts and abort signals under test are the ones that deploy. A rule decides, call by
// call: forward; answer instead of the table (throttling, a 500, a proxy's HTML 502, a cancelled
// transaction, any body DynamoDB could send); reset the connection; hang without forwarding; or
// forward and withhold the table's answer (for a while, or for good). Every call is recorded with
// what was done to it, so a test counts what reached the table.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | { kind: 'forward' }
  | { kind: 'answer'; status: number; body: string; contentType: string }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'withhold'; ms?: number }
  | { kind: 'lose'; instead: Extract<Fault, { kind: 'answer' }> };

export interface ProxiedCall {
  /** DynamoDB's operation, from X-Amz-Target (`GetItem`, `TransactWriteItems`, …). */
  operation: string;
  /** The request body as DynamoDB reads it (attribute values typed: `{ S: 'x' }`). */
  input: Record<string, any>;
  /** When it reached the proxy (performance.now()). */
  at: number;
  fault: Fault['kind'];
  /** When its answer left the proxy, if it did (performance.now()). */
  answeredAt?: number;
}

/** Decides what happens to one call; may await (a race injected before the call goes on). */
export type Rule = (call: ProxiedCall) => Fault | Promise<Fault>;

const json = (status: number, body: object): Fault => ({ kind: 'answer', status, body: JSON.stringify(body), contentType: 'application/x-amz-json-1.0' });
const dynamoError = (status: number, name: string, message: string, extra: object = {}): Fault =>
  json(status, { __type: `com.amazonaws.dynamodb.v20120810#${name}`, message, ...extra });

export const FAULTS = {
  forward: (): Fault => ({ kind: 'forward' }),
  /** DynamoDB's throttling answer (the SDK retries it). */
  throttling: (): Fault => dynamoError(400, 'ThrottlingException', 'Rate of requests exceeds the allowed throughput.'),
  serverError: (): Fault => dynamoError(500, 'InternalServerError', 'Internal server error'),
  /** A refusal the SDK does not retry: the call fails at once, as a crash of the caller would end it there. */
  validation: (): Fault => dynamoError(400, 'ValidationException', 'One or more parameter values were invalid'),
  /** What a load balancer or proxy in the way answers: HTML, not JSON. */
  badGateway: (): Fault => ({
    kind: 'answer',
    status: 502,
    contentType: 'text/html',
    body: '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>',
  }),
  /** A TransactWriteItems of `items` items cancelled because item `at` is in another transaction. */
  transactionConflict: (items: number, at: number): Fault => {
    const reasons = Array.from({ length: items }, (_, i) =>
      i === at ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
    );
    return json(400, {
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
      CancellationReasons: reasons,
    });
  },
  /** A BatchGetItem answered with every key unprocessed (DynamoDB's answer when throttled). */
  unprocessedKeys: (input: Record<string, any>): Fault =>
    json(200, { Responses: Object.fromEntries(Object.keys(input.RequestItems).map((t) => [t, []])), UnprocessedKeys: input.RequestItems }),
  /** A BatchWriteItem answered with every request unprocessed. */
  unprocessedItems: (input: Record<string, any>): Fault => json(200, { UnprocessedItems: input.RequestItems }),
  reset: (): Fault => ({ kind: 'reset' }),
  hang: (): Fault => ({ kind: 'hang' }),
  /** Forwards the call, then holds the table's answer `ms` (never sends it without). */
  withhold: (ms?: number): Fault => ({ kind: 'withhold', ...(ms === undefined ? {} : { ms }) }),
  /** Forwards the call (the table applies it), then answers a 500 instead of the table's answer. */
  lose: (): Fault => ({ kind: 'lose', instead: FAULTS.serverError() as Extract<Fault, { kind: 'answer' }> }),
};

export interface FaultProxy {
  url: string;
  /** Every call that reached the proxy, in order. */
  calls: ProxiedCall[];
  /** The rule for the calls to come (forward everything by default). */
  rule: Rule;
  /** Points the store (DYNAMODB_ENDPOINT) at the proxy; returns what points it back. */
  use: () => () => void;
  close: () => Promise<void>;
}

/** Starts a proxy in front of `target` (the test run's DynamoDB Local by default). */
export async function startFaultProxy(target = process.env.DYNAMODB_ENDPOINT!): Promise<FaultProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const proxy: FaultProxy = {
    url: '',
    calls: [],
    rule: FAULTS.forward,
    use: () => {
      const before = process.env.DYNAMODB_ENDPOINT;
      process.env.DYNAMODB_ENDPOINT = proxy.url;
      return () => {
        process.env.DYNAMODB_ENDPOINT = before;
      };
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const out = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 500, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const text = body.toString('utf8');
    const call: ProxiedCall = {
      operation:
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '',
      input: text ? (JSON.parse(text) as Record<string, any>) : {},
      at: performance.now(),
      fault: 'forward',
    };
    proxy.calls.push(call);
    const fault = await proxy.rule(call);
    call.fault = fault.kind;
    const answer = (status: number, headers: Record<string, string | string[] | undefined>, content: Buffer | string) => {
      if (res.destroyed) return;
      call.answeredAt = performance.now();
      res.writeHead(status, headers);
      res.end(content);
    };
    switch (fault.kind) {
      case 'answer':
        return answer(fault.status, { 'content-type': fault.contentType, 'x-amzn-requestid': `fault-${proxy.calls.length}` }, fault.body);
      case 'reset':
        req.socket.destroy();
        return;
      case 'hang':
        return;
      case 'lose':
        await forward(req, body);
        return answer(fault.instead.status, { 'content-type': fault.instead.contentType }, fault.instead.body);
      case 'forward':
      case 'withhold': {
        const got = await forward(req, body);
        const headers = { ...got.headers };
        delete headers['transfer-encoding'];
        headers['content-length'] = String(got.body.length);
        if (fault.kind === 'forward') return answer(got.status, headers, got.body);
        if (fault.ms === undefined) return;
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer(got.status, headers, got.body);
        }, fault.ms);
        timers.add(timer);
      }
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) res.writeHead(599).end(String(err));
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
