/**
 * The SSRF guard's address classification: every special-purpose range of IANA's IPv4 and IPv6
 * registries is refused, and IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible,
 * IPv4-translated, NAT64, 6to4, Teredo) are judged by the IPv4 address they lead to.
 */
import { describe, expect, it } from 'vitest';
import { isLoopback, refusal } from '../../src/net/address-guard.js';

/** Refused whether or not loopback is allowed. */
const SPECIAL = [
  // IPv4 special-purpose registry
  ['0.0.0.0', 'this network'],
  ['0.1.2.3', 'this network'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['192.0.0.9', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation'],
  ['192.31.196.1', 'AS112'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', 'deprecated 6to4 relay anycast'],
  ['192.168.1.1', 'private'],
  ['192.175.48.1', 'AS112 direct delegation'],
  ['198.18.0.1', 'benchmarking'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['224.0.0.1', 'multicast'],
  // IPv6 special-purpose registry
  ['::', 'unspecified'],
  ['100::1', 'discard-only'],
  ['2001:2::1', 'benchmarking'],
  ['2001:3::1', 'AMT'],
  ['2001:4:112::1', 'AS112-v6'],
  ['2001:10::1', 'deprecated ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:30::1', 'drone remote ID'],
  ['2001:db8::1', 'documentation'],
  ['2620:4f:8000::1', 'AS112-v6 direct delegation'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'segment routing'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'multicast'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['4000::1', 'outside IANA global unicast (2000::/3)'],
  // IPv6 forms carrying a private or special IPv4 address
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:0:a00:1', 'IPv4-translated private (RFC 6145)'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
  ['64:ff9b::169.254.169.254', 'NAT64 of the metadata address'],
  ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['2002:a9fe:a9fe::', '6to4 of 169.254.169.254'],
  ['2001:0:808:808:0:0:f5ff:fffe', 'Teredo, client 10.0.0.1'],
  ['2001:0:a00:1:0:0:f7f7:fbfb', 'Teredo, server 10.0.0.1'],
  ['not an address', 'unparsable'],
] as const;

/** Loopback, refused only where the tenant does not allow it. */
const LOOPBACK = [
  '127.0.0.1',
  '127.1.2.3',
  '::1',
  '::ffff:127.0.0.1',
  '::127.0.0.1',
  '::ffff:0:7f00:1',
  '64:ff9b::127.0.0.1',
  '2002:7f00:1::1',
  '2001:0:808:808:0:0:80ff:fffe', // Teredo, client 127.0.0.1
];

/** Public addresses, and transition forms leading to public IPv4 addresses (NAT64 of DNS64 networks among them). */
const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '2606:4700:4700::1111',
  '64:ff9b::8.8.8.8',
  '::ffff:8.8.4.4',
  '2002:808:808::1',
  '2001:0:808:808:0:0:f7f7:fbfb',
];

describe('the SSRF guard', () => {
  it.each(SPECIAL)('refuses %s (%s), loopback allowed or not', (address) => {
    expect(refusal(address, false)).not.toBeNull();
    expect(refusal(address, true)).not.toBeNull();
    expect(isLoopback(address)).toBe(false);
  });

  it.each(LOOPBACK)('treats %s as loopback', (address) => {
    expect(isLoopback(address)).toBe(true);
    expect(refusal(address, false)).toMatch(/loopback/);
    expect(refusal(address, true)).toBeNull();
  });

  it.each(PUBLIC)('lets %s through', (address) => {
    expect(refusal(address, false)).toBeNull();
    expect(isLoopback(address)).toBe(false);
  });

  it('names the range it refused, never the address (a resolved address is not the caller’s to learn)', () => {
    expect(refusal('10.0.0.1', false)).toMatch(/\(private\)$/);
    expect(refusal('2002:c0a8:101::1', false)).toMatch(/\(6to4 of an IPv4 address that is private\)$/);
    expect(refusal('fe80::1', false)).toMatch(/\(linkLocal\)$/);
    for (const [address] of SPECIAL) expect(refusal(address, false)).not.toContain(address);
  });
});
