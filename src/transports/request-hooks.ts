/**
 * The hooks every request runs, whichever transport serves it: on the way in, the tenant it routed
 * to, its Request-Id header and the one-Host check; on the way out, one access-log line and the
 * request metrics. Through fastify-plugin, so they reach every transport's encapsulated scope.
 * What the hooks and transports attach (tenant, operation, transport) is declared here with
 * `decorateRequest`, so every request object has one shape from its construction (Fastify's
 * Decorators reference); the transports name these decorators, so one registered without this
 * plugin fails the start. Callback-style hooks: an async hook costs a promise and a microtask hop
 * on every request.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AccessLog } from '../observability/access-log.js';
import type { Metrics } from '../observability/metrics.js';
import { checkSingleHost, type TenantRouting } from './request-context.js';

export interface RequestHooksOptions {
  routing: TenantRouting;
  metrics: Metrics;
  /** Writes the per-request line; it carries only the fields named below, so it skips redaction. */
  accessLog: AccessLog;
}

async function addRequestHooks(app: FastifyInstance, { routing, metrics, accessLog }: RequestHooksOptions): Promise<void> {
  app.decorateRequest('tenant', null);
  app.decorateRequest('operation', '');
  app.decorateRequest('transport', '');
  app.addHook('onRequest', (req, reply, done) => {
    const tenant = routing.tenantFor(req.raw, reply.raw);
    if (tenant) req.tenant = tenant;
    reply.header('request-id', req.id);
    try {
      checkSingleHost(req.raw);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    accessLog({
      reqId: req.id,
      tenant: req.tenant?.id,
      operation: req.operation || undefined,
      transport: req.transport || undefined,
      status: reply.statusCode,
      latencyMs: Math.round(reply.elapsedTime * 100) / 100,
    });
    metrics.observeRequest(req, reply);
    done();
  });
}

export const requestHooks = fp(addRequestHooks, { name: 'request-hooks' });
