// IP addresses as numbers, CIDR ranges, and the special-purpose ranges (IANA's IPv4 and IPv6
// special-purpose registries) an outbound notification must not reach unless an admin says so.
// Our own parsing rather than string prefixes: an address has many spellings (::ffff:127.0.0.1 is
// ::ffff:7f00:1), and only its value says where a socket goes.

import { isIP } from 'node:net';

export interface IpAddress {
  family: 4 | 6;
  /** The address as a 32- or 128-bit number. */
  value: bigint;
}

export interface Cidr {
  family: 4 | 6;
  /** The first address of the range (host bits zero). */
  base: bigint;
  prefix: number;
}

/** Why an address is special: the words a refusal uses. */
export type AddressCategory = 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'shared' | 'multicast' | 'broadcast' | 'reserved';

export interface SpecialRange {
  category: AddressCategory;
  /** The registry's range the address falls in, as CIDR text (for the refusal message). */
  cidr: string;
}

const BITS = { 4: 32, 6: 128 } as const;

/** An IPv4 or IPv6 address (IPv6 optionally in brackets or with a zone), or undefined for anything else. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = (text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text).replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return { family: 4, value: ipv4Value(bare) };
  if (family === 6) return { family: 6, value: ipv6Value(bare) };
  return undefined;
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** The 16-bit groups of one side of `::`, an embedded dotted IPv4 tail counting as two. */
function ipv6Groups(part: string): number[] {
  if (part === '') return [];
  return part.split(':').flatMap((group) => {
    if (!group.includes('.')) return [Number.parseInt(group, 16)];
    const v4 = Number(ipv4Value(group));
    return [v4 >>> 16, v4 & 0xffff];
  });
}

function ipv6Value(text: string): bigint {
  const [head = '', tail] = text.split('::');
  const left = ipv6Groups(head);
  const right = tail === undefined ? [] : ipv6Groups(tail);
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** `10.0.0.0/8`, `fd00::/8`; a bare address is a range of one. */
export function parseCidr(text: string): { ok: true; cidr: Cidr } | { ok: false; reason: string } {
  const [addressText = '', prefixText, extra] = text.split('/');
  const address = parseIp(addressText);
  if (!address || extra !== undefined || addressText.includes('%')) return { ok: false, reason: 'is not an IP address or CIDR range' };
  const bits = BITS[address.family];
  if (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText)) return { ok: false, reason: `has a prefix length that is not a number from 0 to ${bits}` };
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (prefix > bits) return { ok: false, reason: `has a prefix length above ${bits}` };
  const cidr = { family: address.family, base: address.value, prefix };
  // 10.0.0.1/8 is a typo for 10.0.0.0/8 or for 10.0.0.1/32: refuse to guess which.
  if ((address.value & hostMask(cidr)) !== 0n) return { ok: false, reason: 'has bits set after its prefix length (write the first address of the range)' };
  return { ok: true, cidr };
}

function hostMask(cidr: { family: 4 | 6; prefix: number }): bigint {
  return (1n << BigInt(BITS[cidr.family] - cidr.prefix)) - 1n;
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  return cidr.family === address.family && (address.value & ~hostMask(cidr)) === cidr.base;
}

function cidr(text: string): Cidr {
  const parsed = parseCidr(text);
  if (!parsed.ok) throw new Error(`${text} ${parsed.reason}`);
  return parsed.cidr;
}

interface Range {
  text: string;
  cidr: Cidr;
  category: AddressCategory;
}

/** The first range that matches decides, so more specific ranges come first. */
const IPV4_RANGES: readonly Range[] = (
  [
    ['0.0.0.0/8', 'unspecified'], // "this network"; 0.0.0.0 reaches the local host on Linux
    ['10.0.0.0/8', 'private'],
    ['100.64.0.0/10', 'shared'], // carrier-grade NAT; 100.100.100.200 is Alibaba Cloud's metadata service
    ['127.0.0.0/8', 'loopback'],
    ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OpenStack instance metadata
    ['169.254.0.0/16', 'link-local'],
    ['172.16.0.0/12', 'private'],
    ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
    ['192.0.2.0/24', 'reserved'], // documentation
    ['192.88.99.0/24', 'reserved'], // 6to4 relay anycast
    ['192.168.0.0/16', 'private'],
    ['198.18.0.0/15', 'reserved'], // benchmarking
    ['198.51.100.0/24', 'reserved'], // documentation
    ['203.0.113.0/24', 'reserved'], // documentation
    ['224.0.0.0/4', 'multicast'],
    ['255.255.255.255/32', 'broadcast'],
    ['240.0.0.0/4', 'reserved'],
  ] as const
).map(([text, category]) => ({ text, cidr: cidr(text), category }));

const IPV6_RANGES: readonly Range[] = (
  [
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['fd00:ec2::254/128', 'metadata'], // AWS instance metadata over IPv6
    ['fc00::/7', 'private'], // unique local
    ['fe80::/10', 'link-local'],
    ['fec0::/10', 'reserved'], // deprecated site-local
    ['ff00::/8', 'multicast'],
    ['2001::/23', 'reserved'], // IETF protocol assignments, Teredo among them
    ['2001:db8::/32', 'reserved'], // documentation
    ['2002::/16', 'reserved'], // 6to4: an IPv4 address inside, reached through a relay
    ['3fff::/20', 'reserved'], // documentation
  ] as const
).map(([text, category]) => ({ text, cidr: cidr(text), category }));

/** Global unicast: IPv6 outside it (IPv4-compatible, discard-only, NAT64 local use...) is reserved. */
const IPV6_GLOBAL_UNICAST = cidr('2000::/3');
const IPV4_MAPPED = cidr('::ffff:0.0.0.0/96');
const NAT64_WELL_KNOWN = cidr('64:ff9b::/96');

/**
 * The IPv4 address an IPv6 one stands for, when it stands for one: IPv4-mapped (::ffff:10.0.0.1,
 * what a dual-stack socket reports for an IPv4 peer) and the NAT64 well-known prefix (64:ff9b::,
 * which a NAT64 gateway forwards to the IPv4 address inside). Otherwise the address itself.
 */
export function effectiveAddress(address: IpAddress): IpAddress {
  if (address.family === 6 && (cidrContains(IPV4_MAPPED, address) || cidrContains(NAT64_WELL_KNOWN, address))) {
    return { family: 4, value: address.value & 0xffff_ffffn };
  }
  return address;
}

/** The special-purpose range `address` (judged by the IPv4 address it stands for) falls in, or undefined for a public address. */
export function specialRange(address: IpAddress): SpecialRange | undefined {
  const effective = effectiveAddress(address);
  const ranges = effective.family === 4 ? IPV4_RANGES : IPV6_RANGES;
  const found = ranges.find((range) => cidrContains(range.cidr, effective));
  if (found) return { category: found.category, cidr: found.text };
  if (effective.family === 6 && !cidrContains(IPV6_GLOBAL_UNICAST, effective)) return { category: 'reserved', cidr: 'outside 2000::/3' };
  return undefined;
}
