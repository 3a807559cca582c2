/**
 * Which addresses an outbound fetch may reach (SSRF guard). Addresses are classified by
 * ipaddr.js, whose ranges follow IANA's IPv4 and IPv6 special-purpose address registries: every
 * range but global unicast is refused, loopback only when the caller allows it. IPv6 outside
 * 2000::/3 (IANA's global unicast space) is refused too. An IPv6 address that carries an IPv4
 * address (IPv4-mapped or -translated, IPv4-compatible, NAT64's well-known prefix, 6to4, Teredo)
 * leads to that IPv4 address, so it is judged by it: `[::127.0.0.1]` is loopback,
 * `2002:c0a8:101::` private, and NAT64 of a public address (DNS64 networks) passes.
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** RFC 6052's well-known prefix; the local-use 64:ff9b:1::/48 (RFC 8215) is refused whole. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** The IPv4 addresses an IPv6 address leads to (RFC 4291 §2.5.5, RFC 6145, RFC 6052, RFC 3056, RFC 4380). */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [v4(p[6]!, p[7]!)];
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? [v4(p[6]!, p[7]!)] : [];
    case '6to4':
      return [v4(p[1]!, p[2]!)];
    case 'teredo': // the server's address, then the client's (stored inverted)
      return [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
    case 'unicast': // IPv4-compatible (deprecated): ::a.b.c.d
      return p.slice(0, 6).every((part) => part === 0) ? [v4(p[6]!, p[7]!)] : [];
    default:
      return [];
  }
}

type Verdict = { kind: 'public' } | { kind: 'loopback' } | { kind: 'refused'; why: string };

/** Reasons name the range, never the address: a name's resolved address is not the caller's to learn. */
function judgeIPv4(address: ipaddr.IPv4): Verdict {
  const range = address.range();
  if (range === 'unicast') return { kind: 'public' };
  return range === 'loopback' ? { kind: 'loopback' } : { kind: 'refused', why: range };
}

function judge(text: string): Verdict {
  let address: Address;
  try {
    address = ipaddr.parse(text);
  } catch {
    return { kind: 'refused', why: 'not an IP address' };
  }
  if (address.kind() === 'ipv4') return judgeIPv4(address as ipaddr.IPv4);
  const v6 = address as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried.length > 0) {
    const verdicts = carried.map(judgeIPv4);
    const refused = verdicts.find((v) => v.kind === 'refused');
    if (refused) return { kind: 'refused', why: `${v6.range()} of an IPv4 address that is ${refused.why}` };
    return verdicts.find((v) => v.kind === 'loopback') ?? { kind: 'public' };
  }
  const range = v6.range();
  if (range === 'loopback') return { kind: 'loopback' };
  if (range !== 'unicast') return { kind: 'refused', why: range };
  if (!v6.match(GLOBAL_UNICAST_V6)) return { kind: 'refused', why: 'outside global unicast' };
  return { kind: 'public' };
}

export function isLoopback(address: string): boolean {
  return judge(address).kind === 'loopback';
}

/** Null when the address may be contacted, else the reason it may not. */
export function refusal(address: string, allowLoopback: boolean): string | null {
  const verdict = judge(address);
  if (verdict.kind === 'loopback') return allowLoopback ? null : 'loopback addresses are not allowed';
  if (verdict.kind === 'refused') return `private, link-local and reserved addresses are not allowed (${verdict.why})`;
  return null;
}
