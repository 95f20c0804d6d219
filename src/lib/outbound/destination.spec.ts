import { describe, expect, it } from 'vitest';
import { parseCidr, parseIp, specialRange } from './addresses.js';
import { checkDestinationUrl, parseAllowEntry, type OutboundPolicy } from './destination.js';
import { utf8Excerpt } from './post.js';

const development: OutboundPolicy = { production: false, allow: [] };
const production: OutboundPolicy = { production: true, allow: [] };

describe('special-purpose addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['fd00::1', 'private'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.1.2.3', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2002:a00:1::', 'reserved'],
    ['::10.0.0.1', 'reserved'],
    ['100::1', 'reserved'],
    // IPv4-mapped and NAT64 addresses are judged by the IPv4 address inside, in any spelling.
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::FFFF:127.0.0.1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'metadata'],
  ])('%s is %s', (text, category) => {
    expect(specialRange(parseIp(text)!)?.category).toBe(category);
  });

  it.each(['93.184.216.34', '172.32.0.1', '100.128.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])('%s is public', (text) => {
    expect(specialRange(parseIp(text)!)).toBeUndefined();
  });

  it('reads CIDRs and refuses ambiguous or malformed ones', () => {
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ ok: true, cidr: { family: 4, prefix: 8 } });
    expect(parseCidr('::1')).toMatchObject({ ok: true, cidr: { family: 6, prefix: 128 } });
    expect(parseCidr('10.0.0.1/8')).toMatchObject({ ok: false, reason: expect.stringContaining('bits set after its prefix') });
    expect(parseCidr('10.0.0.0/33')).toMatchObject({ ok: false, reason: expect.stringContaining('above 32') });
    expect(parseCidr('10.0.0.0/x')).toMatchObject({ ok: false });
    expect(parseCidr('10.0.0/8')).toMatchObject({ ok: false });
  });
});

describe('allowlist entries', () => {
  it.each([
    ['10.0.0.0/8', 'cidr'],
    ['fd00::/8', 'cidr'],
    ['192.168.1.20', 'cidr'],
    ['CRM.Internal.', 'host'],
    ['hooks_backoffice.corp', 'host'],
    ['localhost', 'host'],
  ])('accepts %s as a %s', (entry, kind) => {
    expect(parseAllowEntry(entry)).toMatchObject({ ok: true, entry: { kind } });
  });

  it.each(['*.internal', 'http://crm.internal', 'crm internal', '10.0.0', 'host.123', '10.0.0.0/40', ''])('refuses %j', (entry) => {
    expect(parseAllowEntry(entry)).toMatchObject({ ok: false });
  });
});

describe('checkDestinationUrl', () => {
  it('accepts https anywhere public, and http outside production to this machine alone', () => {
    expect(checkDestinationUrl('https://hooks.example.com/notify?x=1', production)).toMatchObject({ ok: true, url: expect.any(URL) });
    // A name's address is judged when it resolves (postOnce); a literal one now.
    expect(checkDestinationUrl('http://hooks.example.com/notify', development)).toMatchObject({ ok: true });
    expect(checkDestinationUrl('http://93.184.215.14/notify', development)).toMatchObject({ ok: false, code: 'URL_SCHEME_NOT_ALLOWED' });
    expect(checkDestinationUrl('http://hooks.example.com/notify', production)).toMatchObject({ ok: false, code: 'URL_SCHEME_NOT_ALLOWED' });
  });

  it('allows loopback and localhost outside production only, unless allowlisted', () => {
    for (const url of ['http://127.0.0.1:8080/', 'https://[::1]/', 'http://localhost:3000/', 'http://api.localhost/']) {
      expect(checkDestinationUrl(url, development)).toMatchObject({ ok: true });
    }
    expect(checkDestinationUrl('https://localhost/', production)).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
    expect(checkDestinationUrl('https://localhost/', { production: true, allow: ['localhost'] })).toMatchObject({ ok: true });
    expect(checkDestinationUrl('https://localhost/', { production: true, allow: ['::1/128'] })).toMatchObject({ ok: true });
    expect(checkDestinationUrl('https://127.0.0.2/', { production: true, allow: ['127.0.0.0/8'] })).toMatchObject({ ok: true });
  });

  it('allows a private or metadata address only by a CIDR that contains it', () => {
    expect(checkDestinationUrl('https://10.1.2.3/', { production: false, allow: ['10.0.0.0/8'] })).toMatchObject({ ok: true });
    expect(checkDestinationUrl('https://[::ffff:10.1.2.3]/', { production: false, allow: ['10.0.0.0/8'] })).toMatchObject({ ok: true });
    expect(checkDestinationUrl('https://10.1.2.3/', { production: false, allow: ['10.2.0.0/16'] })).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
    expect(checkDestinationUrl('https://169.254.169.254/', { production: false, allow: ['169.254.169.254/32'] })).toMatchObject({ ok: true });
    // The allowlist lifts the address rule, not the one on plain http.
    expect(checkDestinationUrl('http://10.1.2.3/', { production: false, allow: ['10.0.0.0/8'] })).toMatchObject({ ok: false, code: 'URL_SCHEME_NOT_ALLOWED' });
  });

  it('reads the address as the URL parser does, whatever its spelling', () => {
    for (const url of ['https://2130706433/', 'https://0x7f.1/', 'https://127.1/', 'https://[::ffff:7f00:1]/', 'https://0/']) {
      expect(checkDestinationUrl(url, production)).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
    }
  });

  it('refuses other schemes, credentials, overlong and unparsable URLs', () => {
    expect(checkDestinationUrl('file:///etc/passwd', development)).toMatchObject({ ok: false, code: 'URL_SCHEME_NOT_ALLOWED' });
    expect(checkDestinationUrl('gopher://hooks.example.com/', development)).toMatchObject({ ok: false, code: 'URL_SCHEME_NOT_ALLOWED' });
    expect(checkDestinationUrl('https://token@hooks.example.com/', development)).toMatchObject({ ok: false, code: 'URL_CREDENTIALS_NOT_ALLOWED' });
    expect(checkDestinationUrl('https://:secret@hooks.example.com/', development)).toMatchObject({ ok: false, code: 'URL_CREDENTIALS_NOT_ALLOWED' });
    expect(checkDestinationUrl(`https://hooks.example.com/${'a'.repeat(2048)}`, development)).toMatchObject({ ok: false, code: 'URL_INVALID' });
    expect(checkDestinationUrl(`https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`, development)).toMatchObject({ ok: true });
    expect(checkDestinationUrl('/relative/path', development)).toMatchObject({ ok: false, code: 'URL_INVALID' });
    expect(checkDestinationUrl('', development)).toMatchObject({ ok: false, code: 'URL_INVALID' });
  });

  it('throws on an allowlist entry the configuration would have refused', () => {
    expect(() => checkDestinationUrl('https://10.0.0.1/', { production: true, allow: ['10.0.0.1/8'] })).toThrow(/OutboundPolicy\.allow/);
  });
});

describe('utf8Excerpt', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');

  it('cuts before a character the limit would split, 2, 3 and 4 bytes long', () => {
    expect(utf8Excerpt(bytes('aé'), 2)).toEqual({ text: 'a', cut: true });
    expect(utf8Excerpt(bytes('a€'), 3)).toEqual({ text: 'a', cut: true });
    expect(utf8Excerpt(bytes('a😀'), 4)).toEqual({ text: 'a', cut: true });
    expect(utf8Excerpt(bytes('a😀'), 5)).toEqual({ text: 'a😀', cut: false });
    expect(utf8Excerpt(bytes('abc'), 0)).toEqual({ text: '', cut: true });
  });

  it('replaces invalid bytes and NUL, and still keeps within the limit', () => {
    expect(utf8Excerpt(Buffer.from([0x61, 0x00, 0x62]), 10)).toEqual({ text: 'a\ufffdb', cut: false });
    const invalid = utf8Excerpt(Buffer.from([0xff, 0xff, 0xff, 0xff]), 4);
    expect(Buffer.byteLength(invalid.text)).toBeLessThanOrEqual(4);
    expect(invalid).toEqual({ text: '\ufffd', cut: true });
  });
});
