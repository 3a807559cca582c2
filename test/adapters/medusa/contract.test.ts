/**
 * The Medusa adapter through the shared adapter contract suite against the real Medusa server of
 * this run (test/helpers/medusa-global.ts), reached through a fault proxy that only cuts it off
 * (throttle, 5xx, garbage, a hang) when the suite asks. Medusa sends no webhooks: order changes
 * are polled, and handed-off carts are paid the way a Medusa storefront pays them.
 */
import { describe, it } from 'vitest';
import { DEMO_CARD_TOKENS, DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import { runAdapterContract } from '../contract/contract-suite.js';
import { startFaultProxy } from '../../helpers/fault-proxy.js';
import { medusaAdapter, medusaStore, shipOnMedusa } from '../../helpers/medusa-store.js';
import { payOnStorefront } from './storefront.js';

const store = medusaStore();

/** Medusa's carts take several calls a quote: a deadline for a real server on a shared machine. */
const POLICY = { timeoutMs: 25_000, attempts: 2, baseDelayMs: 1, maxDelayMs: 50 };

if (!store) describe.skip('adapter contract: medusa (examples/medusa-store is not installed)', () => it('needs Medusa', () => {}));
else
  runAdapterContract(
    'medusa (real server)',
    async () => {
      const proxy = await startFaultProxy(store.url);
      const adapter = await medusaAdapter(store, { url: proxy.url });
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
        close: () => proxy.close(),
      };
    },
    POLICY,
  );
