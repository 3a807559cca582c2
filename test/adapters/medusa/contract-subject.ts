/**
 * The contract suite's subject for the real Medusa server of this run, whichever adapter speaks to
 * it (the Medusa adapter, or the REST adapter with the Medusa mappings): the store behind a fault
 * proxy that only cuts it off when the suite asks, the seeded shop as fixtures, and handed-off carts
 * paid the way a Medusa storefront pays them. Medusa sends no webhooks by default: changes are polled.
 */
import type { Adapter } from '../../../adapters/contract.js';
import { DEMO_CARD_TOKENS, DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import type { ContractFactory } from '../contract/contract-suite.js';
import { startFaultProxy } from '../../helpers/fault-proxy.js';
import { shipOnMedusa, type RunningMedusa } from '../../helpers/medusa-store.js';
import { payOnStorefront } from './storefront.js';

/** A Medusa quote is several calls on a real server on a shared machine: a deadline with room. */
export const MEDUSA_POLICY = { timeoutMs: 25_000, attempts: 2, baseDelayMs: 1, maxDelayMs: 50 };

export function medusaContractSubject(
  store: RunningMedusa,
  connect: (store: RunningMedusa, options: { url: string }) => Promise<Adapter>,
): ContractFactory {
  return async () => {
    const proxy = await startFaultProxy(store.url);
    const adapter = await connect(store, { url: proxy.url });
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
        await adapter.close?.();
        await proxy.close();
      },
    };
  };
}
