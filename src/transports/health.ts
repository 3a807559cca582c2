/**
 * Liveness and readiness for orchestrators and load balancers (metrics: the admin listener, admin.ts).
 * Readiness follows the state store only: every replica shares it, so a replica that cannot
 * reach it should get no traffic. A merchant backend that does not answer is reported but does
 * not make the replica unready: it is down for every replica alike, and pulling replicas out
 * of the load balancer would take every other tenant down with it.
 */
import type { FastifyInstance } from 'fastify';
import type { StateStore } from '../state/store.js';
import type { TenantRouting } from './request-context.js';
import fp from 'fastify-plugin';

/** A probe must answer well inside a load balancer's check timeout, whatever the backends do. */
const CHECK_DEADLINE_MS = 2000;

async function check(run: (signal: AbortSignal) => Promise<unknown>): Promise<'ok' | 'unavailable'> {
  const signal = AbortSignal.timeout(CHECK_DEADLINE_MS);
  const timedOut = () => new Error(`no answer within ${CHECK_DEADLINE_MS} ms`);
  const deadline = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(timedOut()), { once: true }));
  return Promise.race([run(signal), deadline]).then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );
}

/** A Fastify plugin. */
async function addHealthRoutes(app: FastifyInstance, { store, routing }: { store: StateStore; routing: TenantRouting }): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const tenants = routing.registry.tenants;
    const [storeState, ...adapters] = await Promise.all([
      check(() => store.ping()),
      ...tenants.map((t) => check((signal) => t.adapter.ping(signal))),
    ]);
    const checks: Record<string, string> = { store: storeState };
    tenants.forEach((t, i) => (checks[`adapter:${t.id}`] = adapters[i]!));
    const ready = storeState === 'ok';
    return reply.code(ready ? 200 : 503).send({ ready, degraded: adapters.includes('unavailable'), checks });
  });
}

export const healthRoutes = fp(addHealthRoutes, { name: 'health-routes', encapsulate: true });
