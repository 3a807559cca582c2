/**
 * A tenant's backend circuit: a store that keeps failing is left alone for a while (calls fail at
 * once, as retryable) instead of every request waiting on it; its state and the failed attempts
 * by kind are in the metrics, and a store's final refusal never trips it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BackendError } from '../../adapters/contract.js';
import { Metrics } from '../../src/observability/metrics.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { baseTenantConfig } from '../helpers/gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';
import { sample, scrape } from '../ops/helpers/prometheus.js';

let app: Awaited<ReturnType<typeof buildServer>> | undefined;
afterEach(() => app?.close());

async function gatewayWith(ping: () => Promise<void>, backend: Record<string, number> = {}) {
  const metrics = new Metrics();
  const setup = { apiVersion: async () => ({ version: '1', supported: true, detail: 'ok' }) };
  const adapter = { ...stubAdapter(), ping, setup };
  const config = { ...baseTenantConfig, policies: { backend: { attempts: 1, ...backend } } };
  const tenant = assembleTenant({ config, file: 'shop.yaml' }, adapter, { observe: metrics.backendObserver('shop', 'memory') });
  app = await buildServer({
    settings: { bodyLimitBytes: 65_536, logLevel: 'silent' },
    tenants: new TenantRegistry([tenant]),
    store: new MemoryStore(),
    metrics,
  });
  return tenant;
}

describe('the backend circuit', () => {
  it('opens after 8 failed attempts in a row: the 9th call fails at once without reaching the store', async () => {
    let calls = 0;
    const tenant = await gatewayWith(async () => {
      calls++;
      throw new BackendError('store answered 503', true);
    });
    for (let i = 0; i < 8; i++) await expect(tenant.adapter.ping()).rejects.toThrow('store answered 503');
    expect(tenant.circuit.state).toBe('open');
    const refused = await tenant.adapter.ping().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackendError);
    expect(refused).toMatchObject({ retryable: true, retryAfterMs: 15_000 });
    expect(calls).toBe(8);
    const text = await scrape(app!);
    expect(sample(text, 'proto_backend_circuit_state', { tenant: 'shop', adapter: 'memory' })).toBe(2);
    expect(sample(text, 'proto_backend_errors_total', { tenant: 'shop', adapter: 'memory', method: 'ping', kind: 'unavailable' })).toBe(8);
    expect(app!.metrics.health.summary('shop')).toMatchObject({ calls: 8, errorRate: 1, lastStoreError: { code: 'ping: unavailable' } });
  });

  it("follows the tenant's policy: circuit_failures in a row open it for circuit_pause_seconds", async () => {
    let calls = 0;
    const tenant = await gatewayWith(
      async () => {
        calls++;
        throw new BackendError('store answered 503', true);
      },
      { circuit_failures: 3, circuit_pause_seconds: 40 },
    );
    for (let i = 0; i < 3; i++) await expect(tenant.adapter.ping()).rejects.toThrow('store answered 503');
    const refused = await tenant.adapter.ping().catch((error: unknown) => error);
    expect(refused).toMatchObject({ retryable: true, retryAfterMs: 40_000 });
    expect(String((refused as Error).message)).toContain('failed 3 times in a row');
    expect(calls).toBe(3);
  });

  it("stays closed on a store's final refusals, and passes the adapter's setup through", async () => {
    const tenant = await gatewayWith(async () => {
      throw new BackendError('store answered 404', false);
    });
    for (let i = 0; i < 12; i++) await expect(tenant.adapter.ping()).rejects.toThrow('store answered 404');
    expect(tenant.circuit.state).toBe('closed');
    expect(sample(await scrape(app!), 'proto_backend_circuit_state', { tenant: 'shop' })).toBe(0);
    expect(await tenant.adapter.setup?.apiVersion?.()).toMatchObject({ version: '1' });
  });
});
