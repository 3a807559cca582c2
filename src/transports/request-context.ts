/**
 * Per-request facts every transport needs: which tenant the request routed to, which
 * operation it is (for logs and metrics), and its Request-Id. The request hooks
 * (request-hooks.ts) declare them with `decorateRequest`, so every request has them from the start.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { ProtocolError } from '../protocol/errors.js';
import type { TenantRegistry } from '../tenancy/registry.js';
import type { Tenant } from '../tenancy/tenant.js';
import type { Transport } from '../capabilities/context.js';
import { normalizeRequestUrl } from './normalize-path.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant the request routed to; null for a host and path no tenant serves. */
    tenant: Tenant | null;
    /** Operation name once known, for the request log line and metrics; '' until then. */
    operation: string;
    /** The transport serving the request, once known; '' for routes outside the transports. */
    transport: Transport | '';
  }
}

const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

/** Reuses a well-formed Request-Id header so logs line up with the caller's; else a fresh id. */
export function requestIdFor(raw: IncomingMessage): string {
  const header = raw.headers['request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** A header as one value (repeated lines joined, as HTTP field values combine). */
export function headerValue(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** REST operations require Request-Id (spec part 1 §5). */
export function requireRequestId(req: FastifyRequest): string {
  const header = req.headers['request-id'];
  if (header === undefined || header === '') throw new ProtocolError('missing_request_id', 'Request-Id header is required');
  if (typeof header !== 'string' || !REQUEST_ID.test(header)) {
    throw new ProtocolError('invalid_request_id', 'Request-Id must be 1-200 visible ASCII characters');
  }
  return header;
}

/**
 * RFC 9112 §3.2: a request with more than one Host field line gets 400. Node keeps only the
 * first, which would route the request to a tenant the second one never named.
 */
export function checkSingleHost(raw: IncomingMessage): void {
  let hosts = 0;
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    const name = raw.rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
  }
  if (hosts > 1) throw new ProtocolError('invalid_request', 'the request has more than one Host header');
}

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(.*)$/i;

/**
 * RFC 9112 §3.2.2: for a request target in absolute form (`GET http://shop-b.example/carts`) the
 * server ignores Host and uses the target's authority. The request is turned into the origin-form
 * one it stands for (Host the authority, the URL its path), so routing, signature verification
 * (`@authority`, `@path`) and the front door all see the authority the client named.
 */
function toOriginForm(raw: IncomingMessage & { originalUrl?: string }): string {
  const url = raw.url ?? '/';
  const absolute = ABSOLUTE_FORM.exec(url);
  if (!absolute) return url;
  const [, authority = '', rest = ''] = absolute;
  const path = rest.startsWith('/') ? rest : `/${rest}`;
  raw.headers.host = authority;
  raw.originalUrl = path; // what Fastify reports as the request's original URL
  return path;
}

export function tenantOf(req: FastifyRequest): Tenant {
  if (!req.tenant) throw new ProtocolError('unknown_tenant', `no business is served at ${req.hostname}`);
  return req.tenant;
}

/**
 * Tenant routing happens before Fastify routes, so a path prefix can be stripped. `registry`
 * is replaced whole on a configuration reload; each request keeps the registry that routed it.
 */
export class TenantRouting {
  /**
   * What rewriteUrl found for the request it saw last. Fastify runs the first onRequest hook
   * (tenantFor) in the same tick, so one slot suffices: a WeakMap entry per request cost an
   * ephemeron for every young collection to trace.
   */
  private routed: { raw: IncomingMessage; tenant: Tenant; registry: TenantRegistry } | undefined;

  constructor(public registry: TenantRegistry) {}

  rewriteUrl = (raw: IncomingMessage): string => {
    const url = normalizeRequestUrl(toOriginForm(raw));
    const registry = this.registry;
    const match = registry.route(raw.headers.host, url);
    this.routed = match ? { raw, tenant: match.tenant, registry } : undefined;
    return match ? match.url : url;
  };

  /**
   * The request's tenant, holding its registry open until the response ends. Called from the
   * first onRequest hook, in the same tick as rewriteUrl, so a reload cannot slip in between.
   */
  tenantFor(raw: IncomingMessage, res: ServerResponse): Tenant | undefined {
    const routed = this.routed;
    if (routed?.raw !== raw) return undefined;
    this.routed = undefined;
    res.on('close', routed.registry.hold()); // the release runs once however often it is called
    return routed.tenant;
  }
}
