/**
 * The HTTP request as received, for signature verification and authentication on every
 * transport that arrives over HTTP (REST, and MCP, whose tools/call is one POST to /mcp).
 * It uses the URL before tenant path-prefix rewriting, since that is what the caller signed.
 */
import type { FastifyRequest } from 'fastify';
import { verifiedPeerCertificate } from './auth/client-certificates.js';
import type { HttpRequestMessage } from './http-message.js';

export interface HttpRequestDescriptor extends HttpRequestMessage {
  /** SHA-256 fingerprint (lower-case hex) of a client certificate the TLS listener verified. */
  clientCertificateSha256?: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': ':443', 'http:': ':80' };

/**
 * `baseUrl` is the tenant's public base URL: its scheme is the one the caller addressed.
 * Optional members are set one by one: the spread idiom builds and copies an object for each.
 */
export function describeHttpRequest(req: FastifyRequest, baseUrl: string): HttpRequestDescriptor {
  const target = req.originalUrl;
  const queryAt = target.indexOf('?');
  let authority = (req.headers.host ?? '').toLowerCase();
  const defaultPort = DEFAULT_PORTS[baseUrl.slice(0, baseUrl.indexOf(':') + 1)];
  if (defaultPort && authority.endsWith(defaultPort)) authority = authority.slice(0, -defaultPort.length);
  const request: HttpRequestDescriptor = {
    method: req.method,
    authority,
    path: queryAt < 0 ? target : target.slice(0, queryAt),
    headers: req.headers,
  };
  if (queryAt >= 0) request.query = target.slice(queryAt + 1);
  if (req.rawBody !== undefined) request.body = req.rawBody;
  const certificate = verifiedPeerCertificate(req.raw.socket);
  if (certificate !== undefined) request.clientCertificateSha256 = certificate;
  return request;
}
