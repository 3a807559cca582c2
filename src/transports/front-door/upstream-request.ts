/**
 * The headers a passed-through request carries to the store: its Host (the store's own, or the
 * merchant's with `preserve_host`), the client as X-Forwarded-For/-Proto/-Host, and Via.
 * @fastify/reply-from has already set Host to the store's and dropped Connection and the fields it names.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Storefront } from './storefront.js';

/** How the gateway names itself in Via (RFC 9110 §7.6.3); seeing it come back means a loop. */
export const VIA_NAME = 'proto-gateway';

const OURS = new RegExp(`(^|,)\\s*[^\\s,]+\\s+${VIA_NAME}(\\s|,|$)`, 'i');

/** The request already went through a proto gateway: passing it on would go round forever. */
export function isLoop(req: FastifyRequest): boolean {
  const via = req.headers.via;
  return typeof via === 'string' && OURS.test(via);
}

/**
 * Client first, this hop last. Only the part of a received X-Forwarded-For that came through
 * trusted proxies (TRUST_PROXY) is kept: anything else a client wrote there could be forged.
 */
function forwardedFor(req: FastifyRequest): string {
  const chain = req.ips ?? [req.ip];
  return [...chain].reverse().join(', ');
}

/**
 * Hop-by-hop fields (RFC 9110 §7.6.1) reply-from does not drop unless the client listed them in
 * Connection; undici also refuses a request carrying one of them, or Expect (Node has already
 * answered a client's `Expect: 100-continue`).
 */
const NOT_FORWARDED = ['keep-alive', 'proxy-connection', 'te', 'upgrade', 'expect', 'proxy-authorization'];

export function upstreamRequestHeaders(req: FastifyRequest, headers: IncomingHttpHeaders, storefront: Storefront): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  for (const name of NOT_FORWARDED) delete out[name];
  if (storefront.preserveHost) out.host = req.host;
  out['x-forwarded-for'] = forwardedFor(req);
  out['x-forwarded-proto'] = req.protocol;
  out['x-forwarded-host'] = req.host;
  // The gateway vouches only for X-Forwarded-*: other forwarding fields a client wrote are dropped, not passed on as if checked.
  delete out.forwarded;
  delete out['x-real-ip'];
  out.via = [headers.via, `${req.raw.httpVersion} ${VIA_NAME}`].filter(Boolean).join(', ');
  return out;
}
