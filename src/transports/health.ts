/**
 * Liveness and readiness for orchestrators and load balancers, and the readiness detail for
 * operators (on the operator listener, admin.ts, beside the metrics).
 * Readiness follows the state store only: every replica shares it, so a replica that cannot
 * reach it should get no traffic. A merchant backend that does not answer is reported to
 * operators but does not make the replica unready: it is down for every replica alike, and
 * pulling replicas out of the load balancer would take every other tenant down with it.
 * Tenant hosts get the bare status: which tenants a gateway serves and how their backends fare
 * is nobody's business on a merchant's domain, and a probe anyone can send asks no backend.
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

interface HealthOptions {
  store: StateStore;
  routing: TenantRouting;
}

/** A Fastify plugin: the tenants' port. */
async function addHealthRoutes(app: FastifyInstance, { store }: Pick<HealthOptions, 'store'>): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const ready = (await check(() => store.ping())) === 'ok';
    return reply.code(ready ? 200 : 503).send({ ready });
  });
}

/** A Fastify plugin: the operator listener's `/readyz`, the same readiness with every check named. */
async function addReadinessDetail(app: FastifyInstance, { store, routing }: HealthOptions): Promise<void> {
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
export const readinessDetail = fp(addReadinessDetail, { name: 'readiness-detail', encapsulate: true });
