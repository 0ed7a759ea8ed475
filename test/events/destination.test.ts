// The SSRF guard (lib/events/destination.ts) with an injected resolver (the test machines have no
// DNS): https only, public addresses only, every address of a host checked, loopback only in local mode.
import { afterEach, describe, expect, it } from 'vitest';
import { addressClass, checkDestination, checkUrl, resolveDestination, setResolver, type ResolvedAddress } from '#lib/events/destination.ts';

const STRICT = { allowLoopback: false };
const LOCAL = { allowLoopback: true };

const dnsAnswers = (answers: Record<string, string[]>) =>
  setResolver(async (host) => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return list.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  });

afterEach(() => setResolver(undefined));

describe('address classes', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.100.100.200', 'shared (CGNAT)'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['192.0.0.192', 'reserved'],
    ['fd00:ec2::254', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['fec0::1', 'site-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'IPv4-translation'],
    ['2002:a9fe:a9fe::1', 'IPv4-translation'],
    ['2001:db8::1', 'documentation'],
    ['198.51.100.7', 'documentation'],
  ])('%s is %s', (address, cls) => {
    expect(addressClass(address)).toBe(cls);
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

  it('a host resolving only to public addresses is accepted, and the first checked address is the one to connect to', async () => {
    dnsAnswers({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    await expect(resolveDestination(new URL('https://hooks.example.com/x'), STRICT)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('a host with one internal answer among public ones is refused, naming the address and its class', async () => {
    dnsAnswers({ 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] });
    await expect(checkDestination('https://mixed.example.com/x', STRICT)).rejects.toThrow(
      "The URL's host must be publicly reachable: mixed.example.com resolves to 10.0.0.7, a private address.",
    );
  });

  it.each([
    ['https://127.0.0.1/x', '127.0.0.1 is a loopback address'],
    ['https://[::1]/x', '::1 is a loopback address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['https://[::ffff:169.254.169.254]/x', 'a link-local address'],
    ['https://2130706433/x', '127.0.0.1 is a loopback address'],
    ['https://0x7f.1/x', '127.0.0.1 is a loopback address'],
    ['https://localhost:8443/x', 'localhost resolves to 127.0.0.1, a loopback address'],
    ['https://api.localhost/x', 'api.localhost resolves to 127.0.0.1, a loopback address'],
    ['https://10.0.0.1/x', '10.0.0.1 is a private address'],
    ['https://100.64.1.1/x', '100.64.1.1 is a shared (CGNAT) address'],
    ['https://[fd00:ec2::254]/x', 'fd00:ec2::254 is a unique-local address'],
  ])('outside local mode %s is refused (%s)', async (url, why) => {
    await expect(checkDestination(url, STRICT)).rejects.toThrow(why);
  });

  it('a name resolving to the metadata address is refused; a name that does not resolve is refused', async () => {
    dnsAnswers({ 'metadata.example.com': ['169.254.169.254'] });
    await expect(checkDestination('https://metadata.example.com/', STRICT)).rejects.toThrow('metadata.example.com resolves to 169.254.169.254, a link-local address');
    await expect(checkDestination('https://nowhere.example.com/', STRICT)).rejects.toThrow('The host nowhere.example.com does not resolve.');
  });

  it('local mode allows http and https loopback receivers, and nothing else internal', async () => {
    await expect(checkDestination('http://127.0.0.1:9999/hook', LOCAL)).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('http://localhost:9999/hook', LOCAL)).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('https://[::1]:9999/hook', LOCAL)).resolves.toBeInstanceOf(URL);
    await expect(checkDestination('http://192.168.0.10/hook', LOCAL)).rejects.toThrow('192.168.0.10 is a private address');
    dnsAnswers({ 'hooks.example.com': ['93.184.216.34'] });
    await expect(checkDestination('http://hooks.example.com/hook', LOCAL)).rejects.toThrow('Only loopback receivers may use http');
  });
});
