/**
 * The HTTP request as received, for signature verification and authentication on every
 * transport that arrives over HTTP (REST, and MCP, whose tools/call is one POST to /mcp).
 * It uses the URL before tenant path-prefix rewriting, since that is what the caller signed.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { verifiedPeerCertificate } from './auth/client-certificates.js';
import type { HttpRequestMessage } from './http-message.js';

/** What describing a request reads of it; Fastify's request (with the JSON body parser's bytes) is one. */
export interface ReceivedRequest {
  readonly method: string;
  /** The URL as sent, before tenant path-prefix rewriting. */
  readonly originalUrl: string;
  readonly headers: IncomingHttpHeaders;
  /** The body's bytes as sent; null when none were read. */
  readonly rawBody: Buffer | null;
  readonly raw: { readonly socket: Socket };
}

export interface HttpRequestDescriptor extends HttpRequestMessage {
  /** SHA-256 fingerprint (lower-case hex) of a client certificate the TLS listener verified. */
  clientCertificateSha256?: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'https:': ':443', 'http:': ':80' };

/**
 * `baseUrl` is the tenant's public base URL: its scheme is the one the caller addressed.
 * Optional members are set one by one: the spread idiom builds and copies an object for each.
 */
export function describeHttpRequest(req: ReceivedRequest, baseUrl: string): HttpRequestDescriptor {
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
  if (req.rawBody !== null) request.body = req.rawBody;
  const certificate = verifiedPeerCertificate(req.raw.socket);
  if (certificate !== undefined) request.clientCertificateSha256 = certificate;
  return request;
}
