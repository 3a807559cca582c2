/**
 * What the WooCommerce adapter tells an operator's check about the store's setup: whether its
 * WooCommerce release is one the adapter works with, and which webhooks it holds, where they
 * deliver and whether it still sends them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createWooCommerceAdapter, type WooCommerceAdapter } from '../../../adapters/woocommerce/index.js';
import { registerWebhooks } from '../../../adapters/woocommerce/webhook-setup.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { DEFAULT_KEY, startWooSimulator, type WooSimulator } from '../../../simulators/woocommerce/server.js';

const open: Array<{ sim: WooSimulator; adapter: WooCommerceAdapter }> = [];
afterAll(async () => {
  for (const { sim, adapter } of open) {
    await adapter.close();
    await sim.close();
  }
});

async function store(version?: string) {
  const sim = await startWooSimulator(version ? { version } : {});
  const adapter = await createWooCommerceAdapter({
    settings: { store_url: sim.url },
    consumerKey: DEFAULT_KEY.consumerKey,
    consumerSecret: DEFAULT_KEY.consumerSecret,
    store: new MemoryStore(),
    tenantId: 'flowers',
    now: Date.now,
  });
  open.push({ sim, adapter });
  return { sim, adapter };
}

describe('WooCommerce setup', () => {
  it("reads the store's release from system_status and accepts 9.3 and later", async () => {
    const { adapter } = await store();
    expect(await adapter.setup.apiVersion!()).toEqual({
      version: '10.2.0',
      supported: true,
      detail: 'WooCommerce 10.2.0 (REST API wc/v3, Store API wc/store/v1)',
    });
  });

  it('refuses a release older than 9.3, saying why', async () => {
    const { adapter } = await store('9.1.4');
    const status = await adapter.setup.apiVersion!();
    expect(status).toMatchObject({ version: '9.1.4', supported: false });
    expect(status.detail).toMatch(/^WooCommerce 9\.1\.4 is older than 9\.3\.0, which the adapter needs/);
  });

  it('lists the webhooks with where they deliver, a disabled one as not active', async () => {
    const { sim, adapter } = await store();
    expect((await adapter.setup.webhooks!()).registered).toEqual([]);
    await registerWebhooks(adapter.http, { deliveryUrl: 'http://127.0.0.1:9/webhooks/backend', secret: 'whsec', name: 'Proto gateway' });
    [...sim.store.webhooks.values()].find((h) => h.topic === 'order.updated')!.status = 'disabled';
    const setup = await adapter.setup.webhooks!();
    expect(setup.registered.map((r) => r.topic).sort()).toEqual([...setup.needed].sort());
    expect(setup.registered.filter((r) => !r.active).map((r) => r.topic)).toEqual(['order.updated']);
    expect(new Set(setup.registered.map((r) => r.url))).toEqual(new Set(['http://127.0.0.1:9/webhooks/backend']));
  });
});
