// One webhook POST: to the address the destination check approved (the connection is pinned to it,
// so DNS cannot change between the check and the connect), within a time limit for the whole
// exchange, never following a redirect, and reading at most a few KiB of the answer.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ResolvedAddress } from './destination.ts';

export const POST_TIMEOUT_MS = 5_000;
export const MAX_RESPONSE_BYTES = 4 * 1024;
const USER_AGENT = 'pm-api-webhooks/1';

interface PostRequest {
  url: URL;
  /** Where to connect: the checked address of url's host. */
  address: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
}

export type PostResult = { kind: 'response'; status: number; retryAfterSeconds: number | undefined; bytesRead: number } | { kind: 'failed'; detail: string };

/** Retry-After as seconds (delta-seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\d{1,9}$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function post(req: PostRequest): Promise<PostResult> {
  const { url, address } = req;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // The pinned answer, in whichever form the socket asks for (Node 20 asks for all addresses).
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: PostResult) => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const signal = AbortSignal.timeout(req.timeoutMs ?? POST_TIMEOUT_MS);
    const outgoing = send(
      {
        protocol: url.protocol,
        hostname,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(req.body)),
          'user-agent': USER_AGENT,
        },
        lookup,
        ...(isIP(hostname) ? {} : { servername: hostname }),
        agent: false,
        signal,
      },
      (res: IncomingMessage) => {
        let bytesRead = 0;
        const finish = () => {
          done({ kind: 'response', status: res.statusCode ?? 0, retryAfterSeconds: retryAfterSeconds(res.headers['retry-after']), bytesRead });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          bytesRead += chunk.length;
          if (bytesRead >= MAX_RESPONSE_BYTES) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      done({
        kind: 'failed',
        detail: signal.aborted ? `no answer within ${req.timeoutMs ?? POST_TIMEOUT_MS} ms` : `connection failed (${err.code ?? err.name})`,
      });
    });
    outgoing.end(req.body);
  });
}
