// Where a webhook may be sent (server-side request forgery guard). A subscription URL must be https
// and its host must resolve only to public addresses — checked when the subscription is created and
// again before every delivery, whose connection then goes to the address that was checked (DNS can
// change in between). Refused: private, loopback, link-local (cloud metadata included), CGNAT,
// multicast, unspecified, reserved, documentation and benchmarking ranges, IPv6 unique-local and
// site-local, IPv4-mapped IPv6 forms of all of those, and IPv6 prefixes that tunnel to IPv4
// (NAT64, 6to4, Teredo). Only local development (WEBHOOKS_ALLOW_LOOPBACK=1, set by `npm start`, never
// by the stack) may use http and loopback receivers. The resolver is injectable: tests have no DNS.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export const MAX_URL_LENGTH = 1024;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

let resolver: Resolver = systemResolver;

/** Replaces the resolver (tests: the machines have no DNS); undefined restores the system's. */
export function setResolver(next: Resolver | undefined): void {
  resolver = next ?? systemResolver;
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

type AddressClass = 'loopback' | 'private' | 'link-local' | 'shared (CGNAT)' | 'multicast' | 'unspecified' | 'reserved' | 'documentation' | 'unique-local' | 'site-local' | 'IPv4-translation';

const RANGES: Array<[AddressClass, 'ipv4' | 'ipv6', string, number]> = [
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['shared (CGNAT)', 'ipv4', '100.64.0.0', 10],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['documentation', 'ipv4', '192.0.2.0', 24],
  ['reserved', 'ipv4', '192.88.99.0', 24],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['documentation', 'ipv4', '198.51.100.0', 24],
  ['documentation', 'ipv4', '203.0.113.0', 24],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  // IPv4-compatible (deprecated) addresses; the IPv4-mapped ::ffff:0:0/96 is checked as IPv4 by BlockList.
  ['reserved', 'ipv6', '::', 96],
  ['IPv4-translation', 'ipv6', '64:ff9b::', 96],
  ['IPv4-translation', 'ipv6', '64:ff9b:1::', 48],
  ['reserved', 'ipv6', '100::', 64],
  ['reserved', 'ipv6', '2001::', 23],
  ['documentation', 'ipv6', '2001:db8::', 32],
  ['IPv4-translation', 'ipv6', '2002::', 16],
  ['documentation', 'ipv6', '3fff::', 20],
  ['unique-local', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['site-local', 'ipv6', 'fec0::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
];

const LISTS = RANGES.map(([cls, type, net, prefix]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { cls, list };
});

/** The non-public class an IP address falls in, or 'public'. */
export function addressClass(address: string): AddressClass | 'public' {
  const family = isIP(address);
  if (family === 0) throw new Error(`Not an IP address: ${address}`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // Most specific first (loopback and unspecified sit inside ::/96).
  const hits = LISTS.filter(({ list }) => list.check(address, type)).map(({ cls }) => cls);
  if (hits.length === 0) return 'public';
  return hits.find((c) => c === 'loopback' || c === 'unspecified') ?? hits[0]!;
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
  if (url.username || url.password) throw new DestinationRejected('The URL must not carry a user name or password; configure notification.headers.authorization instead.');
  if (url.hash || raw.includes('#')) throw new DestinationRejected('The URL must not have a fragment (#...).');
  if (!url.hostname) throw new DestinationRejected('The URL has no host.');
  return url;
}

/** The URL host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves the URL's host and checks every address it resolves to; returns the address to connect
 * to. Any refused address refuses the URL: a host may not mix public and internal answers.
 */
export async function resolveDestination(url: URL, policy: DestinationPolicy): Promise<ResolvedAddress> {
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else if (isLoopbackName(host.toLowerCase())) addresses = [{ address: '127.0.0.1', family: 4 }];
  else {
    try {
      addresses = await resolver(host);
    } catch {
      throw new DestinationRejected(`The host ${host.slice(0, 255)} does not resolve.`);
    }
    if (addresses.length === 0) throw new DestinationRejected(`The host ${host.slice(0, 255)} does not resolve.`);
  }
  for (const a of addresses) {
    const cls = addressClass(a.address);
    if (cls === 'public' && url.protocol === 'https:') continue;
    if (cls === 'loopback' && policy.allowLoopback) continue;
    if (cls === 'public') throw new DestinationRejected('Only loopback receivers may use http (local development).');
    const named = isIP(host) ? `${host} is` : `${host.slice(0, 255)} resolves to ${a.address},`;
    throw new DestinationRejected(`The URL's host must be publicly reachable: ${named} a ${cls} address.`);
  }
  return addresses[0]!;
}

/** Both checks, as at subscription creation. */
export async function checkDestination(raw: string, policy: DestinationPolicy): Promise<URL> {
  const url = checkUrl(raw, policy);
  await resolveDestination(url, policy);
  return url;
}
