/**
 * What the Shopify adapter tells an operator's check about the shop's setup: whether Shopify still
 * serves the tenant's API version (a retired one is silently answered by a newer one), and where
 * the app's webhook subscriptions deliver.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopifyAdapter, type ShopifyAdapter } from '../../../adapters/shopify/index.js';
import { withDefaults } from '../../../adapters/shopify/settings.js';
import { startShopifySimulator, type ShopifySimulator } from '../../../simulators/shopify/server.js';

let sim: ShopifySimulator;
const adapters: ShopifyAdapter[] = [];
beforeAll(async () => {
  sim = await startShopifySimulator({ shopDomain: 'petal-setup.myshopify.com' });
});
afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await sim.close();
});

function adapter(api_version?: string): ShopifyAdapter {
  const created = createShopifyAdapter(
    withDefaults({ shop: 'petal-setup.myshopify.com', api_origin: sim.url, ...(api_version && { api_version }) }),
    { storefront_token: sim.credentials.storefrontToken, admin_token: sim.credentials.adminToken, webhook_secret: 'whsec' },
  );
  adapters.push(created);
  return created;
}

describe('Shopify setup', () => {
  it('says the default API version is supported', async () => {
    expect(await adapter().setup.apiVersion!()).toEqual({ version: '2026-10', supported: true, detail: 'Shopify supports 2026-10' });
  });

  it('says a retired API version is no longer served, and which version answers instead', async () => {
    const status = await adapter('2025-01').setup.apiVersion!();
    expect(status).toMatchObject({ version: '2025-01', supported: false });
    expect(status.detail).toBe('Shopify no longer serves 2025-01: its calls are answered by 2026-10 instead; set api_version to 2026-10');
  });

  it("lists the app's subscriptions with where they deliver, and the topics the gateway needs", async () => {
    const shop = adapter();
    expect((await shop.setup.webhooks!()).registered).toEqual([]);
    await shop.registerWebhooks('https://gw.example/webhooks/backend');
    const setup = await shop.setup.webhooks!();
    expect(setup.needed).toContain('ORDERS_CREATE');
    expect(setup.registered.map((r) => r.topic).sort()).toEqual([...setup.needed].sort());
    expect(new Set(setup.registered.map((r) => `${r.url} ${r.active}`))).toEqual(new Set(['https://gw.example/webhooks/backend true']));
  });
});
