// The SSRF guard (lib/events/destination.ts, lib/events/public-address.ts) as an allow-list: every
// entry of IANA's IPv4 and IPv6 Special-Purpose Address Registries as checked in (an address at the
// start, middle and end of each block, as a literal and as a name resolving to it), the IPv6 forms
// that carry an IPv4 address, a sample of the whole address space (fast-check, seed printed on a
// failure) against an oracle written here, and public addresses accepted. Names are resolved by the deployed code path — Node's DNS
// resolver — pointed at a DNS server the test runs (test/support/dns.ts).
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDestination, checkUrl, resolveDestination } from '#lib/events/destination.ts';
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE } from '#lib/events/iana/special-purpose.ts';
import { judgeAddress } from '#lib/events/public-address.ts';
import { REGISTRIES, registryBlocks, specialPurposeModule } from '../../scripts/iana-registries.ts';
import { startDns, type TestDns } from '../support/dns.ts';

const STRICT = { allowLoopback: false };
const LOCAL = { allowLoopback: true };

let dns: TestDns;
beforeAll(async () => {
  dns = await startDns({
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
    'v6only.example.com': ['2606:2800:220:1::1'],
    'mixed.example.com': ['93.184.216.34', '10.0.0.7'],
    'mapped.example.com': ['::ffff:0:a9fe:a9fe'],
    'metadata.example.com': ['169.254.169.254'],
  });
});
afterAll(() => dns.close());

// --- An oracle of its own: addresses as numbers, blocks as ranges -------------------------------

const v4 = (text: string) => text.split('.').reduce((n, octet) => (n << 8n) | BigInt(octet), 0n);
function v6(text: string): bigint {
  const [head = '', tail] = text.split('::');
  const words = (s: string) => (s ? s.split(':') : []);
  const groups = tail === undefined ? words(head) : [...words(head), ...Array<string>(8 - words(head).length - words(tail).length).fill('0'), ...words(tail)];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}
const text4 = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
// Eight uncompressed groups: a valid spelling that no compression logic has touched.
const text6 = (n: bigint) => Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');

interface Range {
  prefix: string;
  name: string;
  first: bigint;
  last: bigint;
  bits: number;
}
function range(prefix: string, name: string, family: 4 | 6): Range {
  const [address, length] = prefix.split('/') as [string, string];
  const width = family === 4 ? 32n : 128n;
  const size = 1n << (width - BigInt(length));
  const first = family === 4 ? v4(address) : v6(address);
  return { prefix, name, first, last: first + size - 1n, bits: Number(length) };
}
const IPV4 = IPV4_SPECIAL_PURPOSE.blocks.map((b) => range(b.prefix, b.name, 4));
const IPV6 = IPV6_SPECIAL_PURPOSE.blocks.map((b) => range(b.prefix, b.name, 6));
const MULTICAST4 = range('224.0.0.0/4', 'multicast', 4);
const GLOBAL_UNICAST = range('2000::/3', 'global unicast', 6);
const within = (n: bigint, r: Range) => n >= r.first && n <= r.last;

/** The oracle's verdict for an address that carries no IPv4 address. */
const publicV4 = (n: bigint) => !IPV4.some((r) => within(n, r)) && !within(n, MULTICAST4);
const publicV6 = (n: bigint) => within(n, GLOBAL_UNICAST) && !IPV6.some((r) => within(n, r));

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// --- The registries ---------------------------------------------------------------------------

describe("IANA's special-purpose registries, checked in", () => {
  it('are read as IANA writes them, with the date of the copy: lib/events/iana/special-purpose.ts is what npm run iana writes from the CSV files', async () => {
    expect(await readFile(new URL('../../lib/events/iana/special-purpose.ts', import.meta.url), 'utf8')).toBe(await specialPurposeModule());
    const [ipv4, ipv6] = await Promise.all(
      REGISTRIES.map(async (r) => registryBlocks(await readFile(new URL(`../../${r.file}`, import.meta.url), 'utf8'), r.file)),
    );
    // 25 rows each; the IPv4 row "192.0.0.170/32, 192.0.0.171/32" names two blocks.
    expect([ipv4!.length, ipv6!.length]).toEqual([26, 25]);
    expect(IPV4_SPECIAL_PURPOSE.blocks).toEqual(ipv4);
    expect(IPV6_SPECIAL_PURPOSE.blocks).toEqual(ipv6);
    expect([IPV4_SPECIAL_PURPOSE.lastUpdated, IPV6_SPECIAL_PURPOSE.lastUpdated]).toEqual(['2025-10-09', '2025-10-09']);
    // Blocks as the registry writes them: no host bits, so the range above is the block.
    for (const r of [...IPV4, ...IPV6]) expect(r.first % (r.last - r.first + 1n), r.prefix).toBe(0n);
    // The two flags the guard's rule is about, as IANA states them.
    expect(IPV6_SPECIAL_PURPOSE.blocks.find((b) => b.prefix === '64:ff9b::/96')).toMatchObject({ name: 'IPv4-IPv6 Translat.', globallyReachable: true });
    expect(IPV6_SPECIAL_PURPOSE.blocks.find((b) => b.prefix === '2001::/32')).not.toHaveProperty('globallyReachable');
  });
});

/** A start, a middle and an end address of a block. */
const samples = (r: Range) => [...new Set([r.first, r.first + (r.last - r.first) / 2n, r.last])];

describe('every entry of the registries is refused', () => {
  const name = (family: 4 | 6, i: number, j: number) => `entry-${family}-${i}-${j}.registry.example.com`;
  beforeAll(() => {
    IPV4.forEach((r, i) => samples(r).forEach((n, j) => dns.answer(name(4, i, j), [text4(n)])));
    IPV6.forEach((r, i) => samples(r).forEach((n, j) => dns.answer(name(6, i, j), [text6(n)])));
  });

  const cases = [...IPV4.map((r, i) => ({ r, i, family: 4 as const })), ...IPV6.map((r, i) => ({ r, i, family: 6 as const }))];
  it.each(cases.map((c) => [`${c.r.prefix} (${c.r.name})`, c] as const))('%s: as a literal and as a name resolving to it', async (_label, { r, i, family }) => {
    const ranges = family === 4 ? IPV4 : IPV6;
    const spell = family === 4 ? text4 : text6;
    for (const [j, n] of samples(r).entries()) {
      const address = spell(n);
      const verdict = judgeAddress(address);
      expect(verdict.public, address).toBe(false);
      if (verdict.public) continue;
      // An IPv6 form that carries a refused IPv4 address names that address; anything else is named
      // by the narrowest block that holds it: this one, or one inside it.
      const carried = /^carries the IPv4 address ([\d.]+) /.exec(verdict.why)?.[1];
      if (carried) expect(publicV4(v4(carried)), verdict.why).toBe(false);
      else {
        const named = ranges.find((x) => verdict.why.startsWith(`is in ${x.prefix} (${x.name})`));
        expect(named, verdict.why).toBeDefined();
        expect(within(n, named!) && named!.bits >= r.bits, verdict.why).toBe(true);
      }
      const literal = family === 4 ? address : `[${address}]`;
      const host = new URL(`https://${literal}/`).hostname.replace(/^\[(.*)\]$/, '$1');
      await expect(checkDestination(`https://${literal}/hook`, STRICT)).rejects.toThrow(`The URL's host must be publicly reachable: ${host} ${verdict.why}.`);
      // The resolver prints the address its own way (dotted for IPv4-mapped, say); the verdict is the same.
      await expect(checkDestination(`https://${name(family, i, j)}/hook`, STRICT)).rejects.toThrow(
        new RegExp(`^The URL's host must be publicly reachable: ${escape(name(family, i, j))} resolves to [0-9a-f.:]+, which ${escape(verdict.why)}\\.$`),
      );
    }
  });
});

describe('IPv6 forms that carry an IPv4 address are judged as that address', () => {
  it.each([
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated', '169.254.169.254'],
    ['::ffff:169.254.169.254', 'IPv4-mapped', '169.254.169.254'],
    ['::a9fe:a9fe', 'IPv4-compatible', '169.254.169.254'],
    ['64:ff9b::169.254.169.254', 'NAT64', '169.254.169.254'],
    ['64:ff9b:1::a9fe:a9fe', 'NAT64 local-use', '169.254.169.254'],
    // The /48 format of RFC 6052 (bits 48–63 and 72–87 around a zero u octet). The prefix length
    // is the operator's, so every reading counts: the /64 one, 169.254.0.0, is refused first.
    ['64:ff9b:1:a9fe:a9:fe00::', 'NAT64 local-use', '169.254.0.0'],
    ['2002:a9fe:a9fe::1', '6to4', '169.254.169.254'],
    // Teredo: server 65.54.227.120, the client's address 169.254.169.254 inverted (RFC 4380 §4).
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'Teredo', '169.254.169.254'],
  ])('https://[%s]/ leads to 169.254.169.254 (%s): refused as link-local', async (address, form, reading) => {
    const host = new URL(`https://[${address}]/`).hostname.slice(1, -1);
    await expect(checkDestination(`https://[${address}]/latest/meta-data`, STRICT)).rejects.toThrow(
      `The URL's host must be publicly reachable: ${host} carries the IPv4 address ${reading} (${form}), which is in 169.254.0.0/16 (Link Local).`,
    );
  });

  it("the issue's case exactly: https://[::ffff:0:a9fe:a9fe]/, and a name whose AAAA record is that address", async () => {
    await expect(checkDestination('https://[::ffff:0:a9fe:a9fe]/', STRICT)).rejects.toThrow(
      "The URL's host must be publicly reachable: ::ffff:0:a9fe:a9fe carries the IPv4 address 169.254.169.254 (IPv4-translated), which is in 169.254.0.0/16 (Link Local).",
    );
    await expect(checkDestination('https://mapped.example.com/', STRICT)).rejects.toThrow(
      /^The URL's host must be publicly reachable: mapped\.example\.com resolves to ::ffff:0:a9fe:a9fe, which carries the IPv4 address 169\.254\.169\.254 \(IPv4-translated\), which is in 169\.254\.0\.0\/16 \(Link Local\)\.$/,
    );
  });

  it.each([
    ['::ffff:10.1.2.3', '10.1.2.3', 'IPv4-mapped', '10.0.0.0/8 (Private-Use)'],
    ['::ffff:127.0.0.1', '127.0.0.1', 'IPv4-mapped', '127.0.0.0/8 (Loopback)'],
    ['64:ff9b::a64:101', '10.100.1.1', 'NAT64', '10.0.0.0/8 (Private-Use)'],
    ['2002:6440:101::', '100.64.1.1', '6to4', '100.64.0.0/10 (Shared Address Space)'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1', 'Teredo', '127.0.0.0/8 (Loopback)'],
    ['::ffff:0:e000:1', '224.0.0.1', 'IPv4-translated', '224.0.0.0/4 (multicast)'],
  ])('%s carries %s (%s): refused, naming %s', (address, ipv4, form, block) => {
    expect(judgeAddress(address)).toMatchObject({ public: false, why: `carries the IPv4 address ${ipv4} (${form}), which is in ${block}` });
  });

  it.each([
    ['::ffff:8.8.8.8', 'is in ::ffff:0:0/96 (IPv4-mapped Address)'],
    ['::ffff:0:808:808', 'is outside global unicast 2000::/3'],
    ['::808:808', 'is outside global unicast 2000::/3'],
    ['64:ff9b::808:808', 'is in 64:ff9b::/96 (IPv4-IPv6 Translat.)'],
    ['2002:808:808::1', 'is in 2002::/16 (6to4)'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'is in 2001::/32 (TEREDO)'],
  ])('%s carries the public 8.8.8.8 and is still refused: %s — the receiver is named by its IPv4 address or a host name', (address, why) => {
    expect(judgeAddress(address)).toEqual({
      public: false,
      why: `${why}, a form that carries the IPv4 address 8.8.8.8: name the receiver by that address or a host name`,
      loopback: false,
    });
  });
});

describe('the allow-list over the whole address space', () => {
  it('10 000 IPv4 and 10 000 IPv6 addresses (half of them in 2000::/3) are judged as the oracle says: IPv4 unicast outside the registry, IPv6 in 2000::/3 outside the registry', () => {
    // Replay with FC_SEED=<seed> (fast-check prints it on a failure).
    const seed = process.env.FC_SEED === undefined ? {} : { seed: Number(process.env.FC_SEED) };
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }), (n) => judgeAddress(text4(n)).public === publicV4(n)),
      { numRuns: 10_000, ...seed },
    );
    // Addresses that carry an IPv4 address are all refused (above); the oracle refuses them too.
    const anywhere = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });
    const globalUnicast = fc.bigInt({ min: GLOBAL_UNICAST.first, max: GLOBAL_UNICAST.last });
    fc.assert(
      fc.property(fc.oneof(anywhere, globalUnicast), (n) => judgeAddress(text6(n)).public === publicV6(n)),
      { numRuns: 10_000, ...seed },
    );
  });

  it('the addresses next to each block inside the allowed space are accepted unless another block or rule holds them', () => {
    for (const [ranges, ok, spell] of [
      [IPV4, publicV4, text4],
      [IPV6, publicV6, text6],
    ] as const) {
      for (const r of ranges) {
        for (const n of [r.first - 1n, r.last + 1n]) {
          if (n < 0n || n >= 1n << (spell === text4 ? 32n : 128n)) continue;
          expect(judgeAddress(spell(n)).public, spell(n)).toBe(ok(n));
        }
      }
    }
    // Two that the sample above is unlikely to hit: just past 2001::/23, and past 2001:db8::/32.
    expect(judgeAddress('2001:200::1')).toEqual({ public: true });
    expect(judgeAddress('2001:db9::1')).toEqual({ public: true });
  });
});

describe('subscription URLs', () => {
  it('refused before any DNS: not https, credentials, a fragment, not absolute, too long', () => {
    expect(() => checkUrl('http://example.com/hook', STRICT)).toThrow('The URL must use https, not http.');
    expect(() => checkUrl('ftp://example.com/hook', LOCAL)).toThrow('must use https, not ftp');
    expect(() => checkUrl('https://user:pw@example.com/hook', STRICT)).toThrow('must not carry a user name or password');
    expect(() => checkUrl('https://example.com/hook#x', STRICT)).toThrow('must not have a fragment');
    expect(() => checkUrl('/hook', STRICT)).toThrow('not an absolute URL');
    expect(() => checkUrl(`https://example.com/${'a'.repeat(1024)}`, STRICT)).toThrow('longer than 1024');
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '[2606:4700:4700::1111]', '[2001:4860:4860::8888]', '[2a00:1450:4001:80b::200e]'])(
    'the public address %s is accepted',
    async (host) => {
      await expect(checkDestination(`https://${host}/hook`, STRICT)).resolves.toBeInstanceOf(URL);
    },
  );

  it('a name resolving only to public addresses is accepted, and the first IPv4 address is the one to connect to; an IPv6-only name connects over IPv6', async () => {
    await expect(resolveDestination(new URL('https://hooks.example.com/x'), STRICT)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolveDestination(new URL('https://V6ONLY.example.com/x'), STRICT)).resolves.toEqual({ address: '2606:2800:220:1::1', family: 6 });
    expect(dns.asked).toEqual(expect.arrayContaining(['hooks.example.com', 'v6only.example.com']));
  });

  it('a name with one internal answer among public ones is refused, naming the address and its block', async () => {
    await expect(checkDestination('https://mixed.example.com/x', STRICT)).rejects.toThrow(
      "The URL's host must be publicly reachable: mixed.example.com resolves to 10.0.0.7, which is in 10.0.0.0/8 (Private-Use).",
    );
  });

  it('a DNS server that never answers: the lookup ends at its time limit (4 s) and the URL is refused', async () => {
    const silent = createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    const saved = process.env.WEBHOOKS_DNS_SERVERS;
    process.env.WEBHOOKS_DNS_SERVERS = `127.0.0.1:${silent.address().port}`;
    const started = Date.now();
    try {
      await expect(checkDestination('https://hooks.example.com/', STRICT)).rejects.toThrow(
        /^The host hooks\.example\.com could not be resolved \((ETIMEOUT|ECANCELLED)\)\.$/,
      );
      // Bounded, not a speed goal: nothing waits on a lookup past its limit (and a margin for a loaded machine).
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      process.env.WEBHOOKS_DNS_SERVERS = saved;
      silent.close();
    }
  });

  it('a name resolving to the metadata address is refused; a name that does not resolve, and a DNS server that refuses the query, are refused', async () => {
    await expect(checkDestination('https://metadata.example.com/', STRICT)).rejects.toThrow(
      "The URL's host must be publicly reachable: metadata.example.com resolves to 169.254.169.254, which is in 169.254.0.0/16 (Link Local).",
    );
    await expect(checkDestination('https://nowhere.example.com/', STRICT)).rejects.toThrow('The host nowhere.example.com does not resolve.');
    const saved = process.env.WEBHOOKS_DNS_SERVERS;
    // A port nothing listens on: the query is refused at once.
    process.env.WEBHOOKS_DNS_SERVERS = '127.0.0.1:9';
    try {
      await expect(checkDestination('https://hooks.example.com/', STRICT)).rejects.toThrow(
        /^The host hooks\.example\.com could not be resolved \(E[A-Z]+\)\.$/,
      );
    } finally {
      process.env.WEBHOOKS_DNS_SERVERS = saved;
    }
  });

  it.each([
    ['https://127.0.0.1/x', '127.0.0.1 is in 127.0.0.0/8 (Loopback)'],
    ['https://[::1]/x', '::1 is in ::1/128 (Loopback Address)'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is in 169.254.0.0/16 (Link Local)'],
    ['https://2130706433/x', '127.0.0.1 is in 127.0.0.0/8 (Loopback)'],
    ['https://0x7f.1/x', '127.0.0.1 is in 127.0.0.0/8 (Loopback)'],
    ['https://localhost:8443/x', 'localhost resolves to 127.0.0.1, which is in 127.0.0.0/8 (Loopback)'],
    ['https://api.localhost/x', 'api.localhost resolves to 127.0.0.1, which is in 127.0.0.0/8 (Loopback)'],
    ['https://10.0.0.1/x', '10.0.0.1 is in 10.0.0.0/8 (Private-Use)'],
    ['https://100.64.1.1/x', '100.64.1.1 is in 100.64.0.0/10 (Shared Address Space)'],
    ['https://[fd00:ec2::254]/x', 'fd00:ec2::254 is in fc00::/7 (Unique-Local)'],
    ['https://[fec0::1]/x', 'fec0::1 is outside global unicast 2000::/3'],
    ['https://[ff02::1]/x', 'ff02::1 is outside global unicast 2000::/3'],
    ['https://224.0.0.251/x', '224.0.0.251 is in 224.0.0.0/4 (multicast)'],
    ['https://[3fff::1]/x', '3fff::1 is in 3fff::/20 (Documentation)'],
  ])('outside local mode %s is refused (%s)', async (url, why) => {
    await expect(checkDestination(url, STRICT)).rejects.toThrow(`The URL's host must be publicly reachable: ${why}.`);
  });

  it('local mode allows http and https loopback receivers, and nothing else internal', async () => {
    await expect(checkDestination('http://127.0.0.1:9999/hook', LOCAL)).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('http://localhost:9999/hook', LOCAL)).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('https://[::1]:9999/hook', LOCAL)).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('http://[::ffff:127.0.0.1]:9999/hook', LOCAL)).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('http://192.168.0.10/hook', LOCAL)).rejects.toThrow('192.168.0.10 is in 192.168.0.0/16 (Private-Use)');
    await expect(checkDestination('http://hooks.example.com/hook', LOCAL)).rejects.toThrow('Only loopback receivers may use http');
  });
});
