// Which IP addresses a webhook may be sent to — an allow-list, so that a block nobody listed here
// is refused rather than let through:
// - IPv4: unicast (below 224.0.0.0/4, multicast, RFC 5771) and outside every block of IANA's IPv4
//   Special-Purpose Address Registry;
// - IPv6: global unicast 2000::/3 (RFC 4291 §2.4) and outside every block of IANA's IPv6
//   Special-Purpose Address Registry;
// - an IPv6 address that carries an IPv4 address — IPv4-mapped ::ffff:0:0/96, IPv4-translated
//   ::ffff:0:0:0/96, IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48 (every RFC 6052
//   reading), 6to4 2002::/16, Teredo 2001::/32 (the client's address, de-obfuscated) — is first
//   judged as that IPv4 address, so the refusal names where it really leads. None of these forms is
//   inside global unicast outside the registry, so each is refused even when the IPv4 address is
//   public: a receiver is named by its IPv4 address or a host name.
// Every block of both registries is refused, "Globally Reachable" or not: a webhook receiver is an
// ordinary host, and each block is set aside for something else — anycast services (PCP, TURN,
// DNS-SD, AMT relays), AS112 sinks, identifiers (ORCHID, DETs), tunnels — none of them a receiver.
// The registries are IANA's, checked in (lib/events/iana/, their date in special-purpose.ts).
import { isIP } from 'node:net';
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE, type SpecialPurposeBlock } from './iana/special-purpose.ts';

type Bytes = Uint8Array;

interface Block {
  bytes: Bytes;
  bits: number;
  prefix: string;
  name: string;
}

/** A validated IPv4 address's four bytes. */
const ipv4Bytes = (text: string): Bytes => Uint8Array.from(text.split('.').map(Number));

/**
 * A validated IPv6 address's sixteen bytes (a trailing dotted IPv4 part included). Node's `net`
 * validates addresses but gives no bytes; parsing one it accepted takes these few lines.
 */
function ipv6Bytes(text: string): Bytes {
  const out = new Uint8Array(16);
  let hex = text;
  const lastColon = text.lastIndexOf(':');
  const dotted = text.includes('.', lastColon) ? ipv4Bytes(text.slice(lastColon + 1)) : undefined;
  if (dotted) hex = `${text.slice(0, lastColon + 1)}0:0`;
  const [head = '', tail] = hex.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  if (dotted) out.set(dotted, 12);
  return out;
}

const bytesOf = (address: string): Bytes => (isIP(address) === 4 ? ipv4Bytes(address) : ipv6Bytes(address));

function block(prefix: string, name: string): Block {
  const [address = '', bits = ''] = prefix.split('/');
  if (!isIP(address)) throw new Error(`Not an address block: ${prefix}`);
  return { bytes: bytesOf(address), bits: Number(bits), prefix, name };
}

function contains(b: Block, bytes: Bytes): boolean {
  if (b.bytes.length !== bytes.length) return false;
  const whole = b.bits >> 3;
  for (let i = 0; i < whole; i++) if (b.bytes[i] !== bytes[i]) return false;
  const rest = b.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (b.bytes[whole]! & mask) === (bytes[whole]! & mask);
}

/** A registry's blocks, narrowest first: a refusal names the most specific block. */
const registry = (blocks: readonly SpecialPurposeBlock[]) => blocks.map((b) => block(b.prefix, b.name)).sort((a, b) => b.bits - a.bits);
const IPV4_BLOCKS = registry(IPV4_SPECIAL_PURPOSE.blocks);
const IPV6_BLOCKS = registry(IPV6_SPECIAL_PURPOSE.blocks);

const IPV4_MULTICAST = block('224.0.0.0/4', 'multicast');
const GLOBAL_UNICAST = block('2000::/3', 'global unicast');
const IPV4_LOOPBACK = block('127.0.0.0/8', 'loopback');
const IPV6_LOOPBACK = block('::1/128', 'loopback');

/** The IPv4 addresses an IPv6 address carries, each with the form it is carried in. */
interface Carried {
  form: string;
  ipv4: Bytes;
}

const slice = (bytes: Bytes, ...at: number[]) => Uint8Array.from(at.map((i) => bytes[i]!));
const LAST32 = [12, 13, 14, 15];

const FORMS: Array<{ form: string; block: Block; readings: (b: Bytes) => Bytes[] }> = [
  { form: 'IPv4-mapped', block: block('::ffff:0:0/96', ''), readings: (b) => [slice(b, ...LAST32)] },
  { form: 'IPv4-translated', block: block('::ffff:0:0:0/96', ''), readings: (b) => [slice(b, ...LAST32)] },
  // RFC 4291 §2.5.5.1: ::/96 but the unspecified and loopback addresses (their own registry entries).
  { form: 'IPv4-compatible', block: block('::/96', ''), readings: (b) => (b[12] || b[13] || b[14] || b[15]! > 1 ? [slice(b, ...LAST32)] : []) },
  { form: 'NAT64', block: block('64:ff9b::/96', ''), readings: (b) => [slice(b, ...LAST32)] },
  // A local-use NAT64 prefix may have any length within the /48 (RFC 8215): every RFC 6052 §2.2
  // reading (/96, /64, /56, /48) that holds an address.
  {
    form: 'NAT64 local-use',
    block: block('64:ff9b:1::/48', ''),
    readings: (b) => [slice(b, ...LAST32), slice(b, 9, 10, 11, 12), slice(b, 7, 9, 10, 11), slice(b, 6, 7, 9, 10)].filter((v) => v.some((x) => x !== 0)),
  },
  { form: '6to4', block: block('2002::/16', ''), readings: (b) => [slice(b, 2, 3, 4, 5)] },
  // RFC 4380 §4: the client's public address, its bits inverted.
  { form: 'Teredo', block: block('2001::/32', ''), readings: (b) => [slice(b, ...LAST32).map((x) => x ^ 0xff)] },
];

function carried(bytes: Bytes): Carried[] {
  return FORMS.filter((f) => contains(f.block, bytes)).flatMap((f) => f.readings(bytes).map((ipv4) => ({ form: f.form, ipv4 })));
}

type Verdict =
  | { public: true }
  | {
      public: false;
      /** Why, as a predicate of the address: "is in 10.0.0.0/8 (Private-Use)". */
      why: string;
      /** A loopback address (local development may send there). */
      loopback: boolean;
    };

const inBlock = (b: Block) => `is in ${b.prefix} (${b.name})`;

function judgeIpv4(bytes: Bytes): Verdict {
  const special = IPV4_BLOCKS.find((b) => contains(b, bytes));
  if (special) return { public: false, why: inBlock(special), loopback: contains(IPV4_LOOPBACK, bytes) };
  if (contains(IPV4_MULTICAST, bytes)) return { public: false, why: inBlock(IPV4_MULTICAST), loopback: false };
  return { public: true };
}

/** Whether a webhook may go to `address` (an IPv4 or IPv6 address; a zone index is ignored). */
export function judgeAddress(address: string): Verdict {
  const text = address.split('%')[0]!;
  const family = isIP(text);
  if (family === 0) throw new Error(`Not an IP address: ${address}`);
  const bytes = bytesOf(text);
  if (family === 4) return judgeIpv4(bytes);
  const inside = carried(bytes);
  for (const { form, ipv4 } of inside) {
    const v = judgeIpv4(ipv4);
    if (!v.public)
      return { public: false, why: `carries the IPv4 address ${ipv4.join('.')} (${form}), which ${v.why}`, loopback: v.loopback && form === 'IPv4-mapped' };
  }
  const also = inside.length > 0 ? `, a form that carries the IPv4 address ${inside[0]!.ipv4.join('.')}: name the receiver by that address or a host name` : '';
  const special = IPV6_BLOCKS.find((b) => contains(b, bytes));
  if (special) return { public: false, why: `${inBlock(special)}${also}`, loopback: contains(IPV6_LOOPBACK, bytes) };
  if (!contains(GLOBAL_UNICAST, bytes)) return { public: false, why: `is outside global unicast ${GLOBAL_UNICAST.prefix}${also}`, loopback: false };
  return { public: true };
}
