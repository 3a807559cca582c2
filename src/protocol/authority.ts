/**
 * Authority binding (spec part 1 §2.1): a schema URL must be https, without userinfo, on a
 * registered multi-label host (no IP literal, no single label), and the reversed host labels
 * followed by a dot must prefix the entity name (proto.dev -> "dev.proto." prefixes
 * "dev.proto.shopping.cart").
 */
import { isIP } from 'node:net';

export function schemaUrlBindsTo(entityName: string, schemaUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(schemaUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (host.startsWith('[') || isIP(host) || !host.includes('.') || host.endsWith('.')) return false;
  const reversed = host.split('.').reverse().join('.');
  return entityName.startsWith(`${reversed}.`);
}
