/**
 * The store's response headers as the buyer sees them on the merchant's domain: a redirect to the
 * store's own origin points at the merchant's origin instead (relative ones are kept as sent), a
 * cookie scoped to a domain the browser would refuse there becomes a host-only one, and the
 * hop-by-hop fields, which @fastify/reply-from would copy, are left out.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Storefront } from './storefront.js';
import { VIA_NAME } from './upstream-request.js';

/** `https://host:port` or `//host` at the start of a URL reference. */
const AUTHORITY = /^([a-z][a-z0-9+.-]*:)?\/\/[^/?#]*/i;

/** The origin the buyer reached: the merchant's (behind trusted proxies, what they forwarded). */
function merchantOrigin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

function onMerchantOrigin(location: string, storefront: Storefront, merchant: string): string {
  const authority = AUTHORITY.exec(location)?.[0];
  if (authority === undefined) return location; // relative: already on the merchant's domain
  let origin: string;
  try {
    origin = new URL(authority, storefront.origin).origin;
  } catch {
    return location;
  }
  // Path, query and fragment are kept byte for byte.
  return origin === storefront.origin ? merchant + location.slice(authority.length) : location;
}

const DOMAIN_ATTRIBUTE = /;\s*domain\s*=\s*\.?([^;]*)/gi;

/** Drops a Domain attribute the merchant's host does not belong to (the browser would refuse the cookie). */
function cookieForMerchant(setCookie: string, merchantHost: string): string {
  return setCookie.replace(DOMAIN_ATTRIBUTE, (attribute, domain: string) => {
    const d = domain.trim().toLowerCase();
    return merchantHost === d || merchantHost.endsWith(`.${d}`) ? attribute : '';
  });
}

/** Hop-by-hop fields (RFC 9110 §7.6.1) describe the store's connection to the gateway, not the buyer's. */
const HOP_BY_HOP = ['connection', 'proxy-connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade'];

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  const named = typeof headers.connection === 'string' ? headers.connection.split(',').map((name) => name.trim().toLowerCase()) : [];
  for (const name of [...HOP_BY_HOP, ...named]) delete out[name];
  return out;
}

export function storefrontResponseHeaders(headers: IncomingHttpHeaders, req: FastifyRequest, storefront: Storefront): IncomingHttpHeaders {
  const out = withoutHopByHop(headers);
  if (typeof headers.location === 'string') out.location = onMerchantOrigin(headers.location, storefront, merchantOrigin(req));
  const cookies = headers['set-cookie'] as string[] | string | undefined; // undici gives a single one as a string
  if (cookies !== undefined) {
    const host = req.hostname.toLowerCase();
    out['set-cookie'] = ([] as string[]).concat(cookies).map((cookie) => cookieForMerchant(cookie, host));
  }
  out.via = [headers.via, `1.1 ${VIA_NAME}`].filter(Boolean).join(', ');
  return out;
}
