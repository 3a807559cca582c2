/** Liveness and readiness for orchestrators and load balancers. */
import type { FastifyInstance } from 'fastify';
import type { StateStore } from '../state/store.js';
import type { TenantRouting } from './request-context.js';

export function registerHealth(app: FastifyInstance, store: StateStore, routing: TenantRouting): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const checks: Record<string, string> = {};
    await store.ping().then(
      () => (checks.store = 'ok'),
      () => (checks.store = 'unavailable'),
    );
    await Promise.all(
      routing.registry.tenants.map((t) =>
        t.adapter.ping(AbortSignal.timeout(2000)).then(
          () => (checks[`adapter:${t.id}`] = 'ok'),
          () => (checks[`adapter:${t.id}`] = 'unavailable'),
        ),
      ),
    );
    const ready = Object.values(checks).every((v) => v === 'ok');
    return reply.code(ready ? 200 : 503).send({ ready, checks });
  });
}
