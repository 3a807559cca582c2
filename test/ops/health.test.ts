/**
 * Readiness: tenant hosts get a bare status (whether the replica takes traffic), naming no tenant
 * and asking no backend; the operator listener gets the detail (each tenant's backend).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../adapters/contract.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { StoreUnavailableError } from '../../src/state/store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

/** Two tenants on their own hosts: `up` answers its pings, `down` never does. */
async function gateway(store = new MemoryStore()) {
  const pings: string[] = [];
  const adapter = (id: string, fails: boolean) => ({
    ...stubAdapter(),
    ping: async () => {
      pings.push(id);
      if (fails) throw new BackendError('backend said 503', false);
    },
  });
  const tenant = (id: string, fails: boolean) =>
    assembleTenant(
      { config: { ...baseTenantConfig, id, base_url: `https://${id}.example`, hosts: [`${id}.example`] }, file: `${id}.yaml` },
      adapter(id, fails),
    );
  app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: 'silent' },
    tenants: new TenantRegistry([tenant('up', false), tenant('down', true)]),
    store,
    jobPollMs: 3_600_000,
  });
  return { app, pings };
}

describe('/readyz on a tenant host', () => {
  it('is a bare status: no tenant id, no backend health, and no backend asked', async () => {
    const { app, pings } = await gateway();
    for (const host of ['up.example', 'down.example', 'nobody.example']) {
      const res = await app.inject({ method: 'GET', url: '/readyz', headers: { host } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ready: true });
      expect(res.body).not.toMatch(/adapter|degraded|"up"|"down"/);
    }
    expect(pings).toEqual([]);
  });

  it('is 503 when the state store does not answer', async () => {
    const store = new MemoryStore();
    store.ping = () => Promise.reject(new StoreUnavailableError('redis down'));
    const { app } = await gateway(store);
    const res = await app.inject({ method: 'GET', url: '/readyz', headers: { host: 'up.example' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ready: false });
  });
});

describe('/readyz on the operator listener', () => {
  it("lists the store and every tenant's backend, degraded when one does not answer", async () => {
    const { app } = await gateway();
    const res = await app.admin.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ready: true, degraded: true, checks: { store: 'ok', 'adapter:up': 'ok', 'adapter:down': 'unavailable' } });
  });

  it('is 503 with the detail when the state store does not answer', async () => {
    const store = new MemoryStore();
    store.ping = () => Promise.reject(new StoreUnavailableError('redis down'));
    const { app } = await gateway(store);
    const res = await app.admin.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ready: false, checks: { store: 'unavailable' } });
  });
});
