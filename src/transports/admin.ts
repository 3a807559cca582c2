/**
 * The operator listener: Prometheus metrics and the readiness detail (each tenant's backend) on
 * their own port (ADMIN_PORT), bound to an admin address (ADMIN_HOST, loopback by default), never
 * on the port that serves tenants. Whatever a tenant host, a path spelling or a proxy rule lets
 * through to the public port, they are not there. Liveness and a bare readiness stay on the
 * public port too: load balancers probe the port they send traffic to. The operator console
 * (console/) is here too, for the same reason.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { OperatorToken } from '../config/operator-tokens.js';
import type { Metrics } from '../observability/metrics.js';
import type { StateStore } from '../state/store.js';
import { readinessDetail } from './health.js';
import type { TenantRouting } from './request-context.js';
import { operatorConsole } from './console/console-routes.js';

/** `operators`: who may act in the console; `log`: where its actions are logged; `now`: the gateway's clock. */
export async function buildAdminServer(
  metrics: Metrics,
  health: { store: StateStore; routing: TenantRouting },
  operatorDeps: { operators: readonly OperatorToken[]; log: FastifyBaseLogger; now: () => number },
): Promise<FastifyInstance> {
  const admin = Fastify({ logger: false, forceCloseConnections: true });
  await admin.register(operatorConsole, { metrics, ...health, ...operatorDeps });
  admin.get('/metrics', async (_req, reply) => reply.type(metrics.contentType).send(await metrics.scrape()));
  admin.get('/healthz', async () => ({ status: 'ok' }));
  await admin.register(readinessDetail, health);
  await admin.ready();
  return admin;
}
