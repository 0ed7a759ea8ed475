// Where a webhook may be sent (server-side request forgery guard). A subscription URL must be https
// and its host must resolve only to addresses ./public-address.ts accepts — checked when the
// subscription is created and again before every delivery, whose connection then goes to the
// address that was checked (DNS can change in between). Only local development
// (WEBHOOKS_ALLOW_LOOPBACK=1, set by `npm start`, never by the stack) may use http and loopback
// receivers. Names are resolved by Node's DNS resolver (A and AAAA records), from the servers
// WEBHOOKS_DNS_SERVERS names or the system's.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { judgeAddress } from './public-address.ts';
import { config } from '../config.ts';

const MAX_URL_LENGTH = 1024;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A lookup's time limit; c-ares gives each query 1 s on its first try, and tries twice within it. */
const LOOKUP_TIMEOUT_MS = 4_000;
const QUERY_TIMEOUT_MS = 1_000;
const QUERY_TRIES = 2;

/** "No such name" and "no record of this type" are answers (nothing to connect to); anything else is a failure. */
const NO_ANSWER = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Every A and AAAA address of `host`, IPv4 first; empty when it has none. A resolver of its own
 * per lookup, so that cancelling it at the time limit cancels nothing else.
 */
async function lookUp(host: string): Promise<ResolvedAddress[]> {
  const r = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
  const servers = config.webhooksDnsServers;
  if (servers.length > 0) r.setServers(servers);
  const answers = async (family: 4 | 6): Promise<ResolvedAddress[]> => {
    try {
      return (await (family === 4 ? r.resolve4(host) : r.resolve6(host))).map((address) => ({ address, family }));
    } catch (err) {
      if (NO_ANSWER.has((err as { code?: string }).code ?? '')) return [];
      throw err;
    }
  };
  const timer = setTimeout(() => r.cancel(), LOOKUP_TIMEOUT_MS);
  try {
    const [v4, v6] = await Promise.all([answers(4), answers(6)]);
    return [...v4, ...v6];
  } finally {
    clearTimeout(timer);
  }
}

export interface DestinationPolicy {
  /** Local development only: http and loopback receivers are allowed. */
  allowLoopback: boolean;
}

/** A URL or address a webhook may not go to; `detail` says why, for the client or the delivery log. */
export class DestinationRejected extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'DestinationRejected';
  }
}

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** The URL's own rules (no DNS): absolute, https (http only for local loopback), no credentials or fragment. */
export function checkUrl(raw: string, policy: DestinationPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw new DestinationRejected(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DestinationRejected('The URL is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && !(policy.allowLoopback && url.protocol === 'http:')) {
    throw new DestinationRejected(`The URL must use https, not ${url.protocol.slice(0, -1).slice(0, 20)}.`);
  }
  if (url.username || url.password)
    throw new DestinationRejected('The URL must not carry a user name or password; configure notification.headers.authorization instead.');
  if (url.hash || raw.includes('#')) throw new DestinationRejected('The URL must not have a fragment (#...).');
  if (!url.hostname) throw new DestinationRejected('The URL has no host.');
  return url;
}

/** The URL host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves the URL's host and checks every address it resolves to; returns the address to connect
 * to. Any refused address refuses the URL: a host may not mix public and internal answers.
 * `localhost` and `*.localhost` are loopback without asking DNS (RFC 6761 §6.3).
 */
export async function resolveDestination(url: URL, policy: DestinationPolicy): Promise<ResolvedAddress> {
  const host = hostOf(url);
  const named = host.slice(0, 255);
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else if (isLoopbackName(host.toLowerCase())) addresses = [{ address: '127.0.0.1', family: 4 }];
  else {
    try {
      addresses = await lookUp(host);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new DestinationRejected(`The host ${named} could not be resolved (${typeof code === 'string' ? code : 'DNS failure'}).`);
    }
    if (addresses.length === 0) throw new DestinationRejected(`The host ${named} does not resolve.`);
  }
  for (const a of addresses) {
    const verdict = judgeAddress(a.address);
    if (verdict.public && url.protocol === 'https:') continue;
    if (!verdict.public && verdict.loopback && policy.allowLoopback) continue;
    if (verdict.public) throw new DestinationRejected('Only loopback receivers may use http (local development).');
    const subject = isIP(host) ? host : `${named} resolves to ${a.address}, which`;
    throw new DestinationRejected(`The URL's host must be publicly reachable: ${subject} ${verdict.why}.`);
  }
  return addresses[0]!;
}

/**
 * The checks that need no DNS: the URL, and its host where it names an address itself (an IP
 * literal, `localhost`). What a restore holds a subscription to, which may run where the receiver's
 * name does not resolve; each delivery checks the resolved addresses again (./deliver.ts).
 */
export async function checkDestinationOffline(raw: string, policy: DestinationPolicy): Promise<URL> {
  const url = checkUrl(raw, policy);
  const host = hostOf(url);
  if (isIP(host) || isLoopbackName(host.toLowerCase())) await resolveDestination(url, policy);
  return url;
}

/** Both checks, as at subscription creation. */
export async function checkDestination(raw: string, policy: DestinationPolicy): Promise<URL> {
  const url = checkUrl(raw, policy);
  await resolveDestination(url, policy);
  return url;
}
