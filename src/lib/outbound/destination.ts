// Where the gateway may send a back-office notification: the URL's own rules (scheme,
// credentials, length) and which addresses it may connect to. A URL is checked without DNS when
// an admin registers it; every address a name resolves to, and the address actually connected
// to, are checked again for each delivery (src/lib/outbound/post.ts).

import { cidrContains, effectiveAddress, parseCidr, parseIp, specialRange, type AddressCategory, type Cidr, type IpAddress } from './addresses.js';

/** One answer of a name lookup, as `dns.lookup(name, { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface OutboundPolicy {
  /** NODE_ENV=production: https only, loopback not allowed either unless allowlisted. */
  production: boolean;
  /** Destinations allowed despite being private/loopback/link-local: CIDRs ("10.0.0.0/8", "::1/128") or exact host names. */
  allow: readonly string[];
  /** Resolves a host name to every address it has; `dns.lookup` (the system's resolver) when absent. Tests give their own. */
  resolve?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
  /** Certificates trusted for https besides Node's bundled ones (a private CA; tests use a self-signed one). */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
}

export type DestinationRefusal = { code: 'URL_INVALID' | 'URL_SCHEME_NOT_ALLOWED' | 'URL_CREDENTIALS_NOT_ALLOWED' | 'ADDRESS_NOT_ALLOWED'; message: string };

/** Longest destination URL accepted, in characters. */
export const MAX_URL_LENGTH = 2048;

/** One entry of `OutboundPolicy.allow`, understood. */
export type AllowEntry = { kind: 'cidr'; cidr: Cidr } | { kind: 'host'; host: string };

// A DNS name: labels of letters, digits, '-' and '_' (some internal zones use it), 1 to 63 long.
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * An allowlist entry: a CIDR (`10.0.0.0/8`, `fd00::/8`), a single address, or an exact host name
 * (no wildcards). The configuration validates its setting with this.
 */
export function parseAllowEntry(entry: string): { ok: true; entry: AllowEntry } | { ok: false; reason: string } {
  const text = entry.trim().toLowerCase();
  if (text.includes('/') || text.includes(':') || /^[0-9.]+$/.test(text)) {
    const parsed = parseCidr(text);
    return parsed.ok ? { ok: true, entry: { kind: 'cidr', cidr: parsed.cidr } } : { ok: false, reason: parsed.reason };
  }
  const host = text.replace(/\.$/, '');
  // A URL whose host ends in a number is an IPv4 address to the URL parser (http://10.1 is 10.0.0.1):
  // such a "host name" would never match.
  if (!HOST_NAME.test(host) || /(^|\.)(0x[0-9a-f]*|[0-9]+)$/.test(host)) return { ok: false, reason: 'is neither a CIDR range (10.0.0.0/8, fd00::/8), an IP address nor a host name' };
  return { ok: true, entry: { kind: 'host', host } };
}

interface Allowlist {
  cidrs: Cidr[];
  hosts: Set<string>;
}

// Policies are built once (from the configuration) and used for every delivery.
const compiled = new WeakMap<readonly string[], Allowlist>();

function allowlistOf(policy: OutboundPolicy): Allowlist {
  let allowlist = compiled.get(policy.allow);
  if (!allowlist) {
    allowlist = { cidrs: [], hosts: new Set() };
    for (const text of policy.allow) {
      const parsed = parseAllowEntry(text);
      // The configuration refuses a bad entry at start; one here is a programmer's error.
      if (!parsed.ok) throw new TypeError(`OutboundPolicy.allow: "${text}" ${parsed.reason}`);
      if (parsed.entry.kind === 'cidr') allowlist.cidrs.push(parsed.entry.cidr);
      else allowlist.hosts.add(parsed.entry.host);
    }
    compiled.set(policy.allow, allowlist);
  }
  return allowlist;
}

/** A host name as the allowlist compares it: lower case, without the root's trailing dot. */
export function normalHostName(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

const CATEGORY_WORDS: Record<AddressCategory, string> = {
  loopback: 'a loopback',
  private: 'a private',
  'link-local': 'a link-local',
  metadata: 'a cloud metadata',
  unspecified: 'an unspecified',
  shared: 'a carrier-grade NAT',
  multicast: 'a multicast',
  broadcast: 'the broadcast',
  reserved: 'a reserved',
};

/**
 * Whether the gateway may connect to `address` for a URL whose host is `hostname`. Public
 * addresses always; a special one when an allowlisted CIDR contains it, when the URL's host name
 * is allowlisted (except a metadata address, which only a CIDR can allow: a name is not a reason
 * to hand out cloud credentials), or, outside production, when it is loopback.
 */
export function judgeAddress(address: IpAddress, hostname: string | undefined, policy: OutboundPolicy, plaintext = false): DestinationRefusal | undefined {
  const refusal = judgeRange(address, hostname, policy);
  if (refusal) return refusal;
  // Plain http is for a developer's receiver on this machine (production refuses it before any
  // address is read): anywhere else the body and its signature would cross a network unencrypted.
  // Judged on the address itself, so a name that resolves to this machine qualifies.
  if (plaintext && specialRange(address)?.category !== 'loopback') {
    return { code: 'URL_SCHEME_NOT_ALLOWED', message: 'The destination must use https; http is allowed only to this machine (a loopback address) outside production' };
  }
  return undefined;
}

function judgeRange(address: IpAddress, hostname: string | undefined, policy: OutboundPolicy): DestinationRefusal | undefined {
  const special = specialRange(address);
  if (!special) return undefined;
  const allowlist = allowlistOf(policy);
  const effective = effectiveAddress(address);
  if (allowlist.cidrs.some((cidr) => cidrContains(cidr, address) || cidrContains(cidr, effective))) return undefined;
  if (special.category !== 'metadata' && hostname !== undefined && allowlist.hosts.has(normalHostName(hostname))) return undefined;
  if (special.category === 'loopback' && !policy.production) return undefined;
  // Names the range, never the address or the URL: the caller's input stays out of messages.
  return {
    code: 'ADDRESS_NOT_ALLOWED',
    message: `The destination is ${CATEGORY_WORDS[special.category]} address (${special.cidr})${special.category === 'loopback' ? ', refused in production' : ''}; only the allowlist of destinations can allow it`,
  };
}

/** Names that always mean this machine (RFC 6761), whatever a resolver says. */
function isLocalhostName(hostname: string): boolean {
  const name = normalHostName(hostname);
  return name === 'localhost' || name.endsWith('.localhost');
}

const LOOPBACK_ADDRESSES = [parseIp('127.0.0.1')!, parseIp('::1')!];

/** Static check of a URL when an admin registers/updates it (no DNS): scheme, credentials, length (<= 2048), literal IPs and 'localhost' against the rules. */
export function checkDestinationUrl(url: string, policy: OutboundPolicy): { ok: true; url: URL } | ({ ok: false } & DestinationRefusal) {
  const refuse = (code: DestinationRefusal['code'], message: string) => ({ ok: false as const, code, message });
  if (typeof url !== 'string' || url.length === 0) return refuse('URL_INVALID', 'The destination URL is empty');
  if (url.length > MAX_URL_LENGTH) return refuse('URL_INVALID', `The destination URL is longer than ${MAX_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('URL_INVALID', 'The destination is not an absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return refuse('URL_SCHEME_NOT_ALLOWED', 'The destination URL must use https (or http outside production)');
  if (parsed.protocol === 'http:' && policy.production) return refuse('URL_SCHEME_NOT_ALLOWED', 'The destination URL must use https in production');
  if (parsed.username !== '' || parsed.password !== '') return refuse('URL_CREDENTIALS_NOT_ALLOWED', 'The destination URL must not carry a user name or password; send credentials in headers');
  if (parsed.hostname === '') return refuse('URL_INVALID', 'The destination URL has no host');
  const literal = parseIp(parsed.hostname);
  if (literal) {
    const refusal = judgeAddress(literal, undefined, policy, parsed.protocol === 'http:');
    if (refusal) return { ok: false, ...refusal };
  } else if (isLocalhostName(parsed.hostname)) {
    // localhost is loopback by definition: allowed when either of its addresses would be.
    const refusals = LOOPBACK_ADDRESSES.map((address) => judgeAddress(address, parsed.hostname, policy));
    if (refusals.every(Boolean)) return { ok: false, ...refusals[0]! };
  }
  return { ok: true, url: parsed };
}
