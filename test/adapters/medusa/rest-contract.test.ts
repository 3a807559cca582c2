/**
 * Medusa through the generic REST adapter (examples/rest-tenants/tenants/medusa.yaml: a tenant file
 * and mappings, no Medusa code in the gateway) through the shared adapter contract suite, against the
 * real Medusa server of this run (test/helpers/medusa-global.ts) behind a fault proxy that cuts it
 * off only when the suite asks. Every finishing mode the tenant declares runs: store_charged (the
 * store's test-card provider declines `fail_token`), gateway_charged (Medusa's manual provider, the
 * payment then captured through the Admin API) and handoff (paid as a Medusa storefront pays).
 */
import { describe, it } from 'vitest';
import { DEMO_CARD_TOKENS, DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import { runAdapterContract } from '../contract/contract-suite.js';
import { startFaultProxy } from '../../helpers/fault-proxy.js';
import { medusaRestAdapter } from '../../helpers/medusa-rest.js';
import { medusaStore, shipOnMedusa } from '../../helpers/medusa-store.js';
import { payOnStorefront } from './storefront.js';

const store = medusaStore();

/** A Medusa quote is several calls on a real server on a shared machine: a deadline with room. */
const POLICY = { timeoutMs: 25_000, attempts: 2, baseDelayMs: 1, maxDelayMs: 50 };

if (!store)
  describe.skip('adapter contract: medusa through rest (examples/medusa-store is not installed)', () => it('needs Medusa', () => {}));
else
  runAdapterContract(
    'medusa through the rest adapter (real server)',
    async () => {
      const proxy = await startFaultProxy(store.url);
      const adapter = await medusaRestAdapter(store, { url: proxy.url });
      const { products, variants } = store.seed;
      return {
        adapter,
        fixtures: {
          ...DEMO_SHOP_FIXTURES,
          // Medusa's `q` matches titles and descriptions: three of the shop's products say "white".
          searchText: 'white',
          product: {
            id: products.florist_tee!,
            optionNames: ['Size', 'Color'],
            variantId: variants.florist_tee_m_green!,
            axesUnordered: true,
          },
          sku: { value: 'FLW-ROSE-12', variantId: variants.bouquet_roses! },
          handle: { value: 'red-rose-bouquet', productId: products.bouquet_roses! },
          line: { variantId: variants.bouquet_roses!, quantity: 2 },
          gatewayHandlerId: 'sandbox',
          storeCharged: { handlerId: 'store_card', ...DEMO_CARD_TOKENS },
        },
        controls: {
          failNext: (fault, count) => proxy.failNext(fault, count),
          reset: () => proxy.reset(),
          async payHandoff({ url, address, buyer }) {
            const cartId = new URL(url).searchParams.get('cart_id')!;
            return { orderId: await payOnStorefront(store, cartId, address, buyer), delivery: null };
          },
          async shipOrder(orderId) {
            await shipOnMedusa(store, orderId);
            return null;
          },
          pingDelivery: () => null,
        },
        close: async () => {
          await adapter.close();
          await proxy.close();
        },
      };
    },
    POLICY,
  );
