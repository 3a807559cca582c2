/**
 * Which addresses an outbound fetch may reach (SSRF guard). Private, link-local, CGNAT,
 * multicast and reserved ranges are always refused; loopback only when the caller allows it.
 */
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const forbidden = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const) {
  forbidden.addSubnet(net, bits, 'ipv6');
}

/** IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged by its IPv4 address. */
function unmap(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopback(address: string): boolean {
  const { address: a, family } = unmap(address);
  return loopback.check(a, family);
}

/** Null when the address may be contacted, else the reason it may not. */
export function refusal(address: string, allowLoopback: boolean): string | null {
  const { address: a, family } = unmap(address);
  if (loopback.check(a, family)) return allowLoopback ? null : 'loopback addresses are not allowed';
  if (forbidden.check(a, family)) return 'private, link-local and reserved addresses are not allowed';
  return null;
}
