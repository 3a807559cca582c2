/**
 * The Shopify adapter through the shared adapter contract suite, against the Shopify simulator
 * over HTTP: faults are the simulator's (Admin THROTTLED answers, 5xx, garbage bodies, hangs), the
 * handoff is paid on the simulated hosted checkout, and webhooks are the ones it signs.
 */
import { runAdapterContract, type BackendFault, type SignedDelivery, type SimulatorControls } from '../contract/contract-suite.js';
import type { Fault } from '../../../simulators/shopify/faults.js';
import { toShopifyAddress } from '../../../adapters/shopify/addresses.js';
import type { ShopifySimulator } from '../../../simulators/shopify/server.js';
import { DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import { shopifySetup } from './helpers.js';

const FAULTS: Record<BackendFault, Fault> = {
  throttle: { type: 'throttle' },
  server_error: { type: 'status', status: 503 },
  garbage: { type: 'garbage' },
  hang: { type: 'hang' },
};

const signed = (sim: ShopifySimulator, topic: string): SignedDelivery | null => {
  const delivery = sim.webhooks.deliveries.findLast((d) => d.topic === topic);
  return delivery ? { headers: delivery.headers, body: Buffer.from(delivery.body) } : null;
};

runAdapterContract('shopify', async () => {
  const { sim, adapter, close } = await shopifySetup();
  const gid = (type: 'Product' | 'ProductVariant', id: string) => sim.shop.ids.gid(type, id);
  const controls: SimulatorControls = {
    failNext: (fault, count = 1) => sim.faults.inject(FAULTS[fault], { times: count }),
    reset: () => sim.faults.clear(),
    async payHandoff({ url, address, buyer }) {
      const order = await sim.pay(url, { email: buyer.email, shippingAddress: toShopifyAddress(address) });
      return { orderId: order.id.split('/').at(-1)!, delivery: signed(sim, 'orders/create') };
    },
    async shipOrder(orderId) {
      await sim.orders.fulfill(`gid://shopify/Order/${orderId}`, {
        tracking: { company: 'UPS', number: '1Z999', url: 'https://www.ups.com/track?tracknum=1Z999' },
      });
      return signed(sim, 'fulfillments/create');
    },
    pingDelivery: () => null,
  };
  return {
    adapter,
    fixtures: {
      currency: 'USD',
      searchText: 'bouquet',
      product: {
        id: gid('Product', 'florist_tee'),
        optionNames: ['Size', 'Color'],
        variantId: gid('ProductVariant', 'florist_tee_m_green'),
      },
      sku: { value: 'FLW-ROSE-12', variantId: gid('ProductVariant', 'bouquet_roses') },
      handle: { value: 'red-rose-bouquet', productId: gid('Product', 'bouquet_roses') },
      line: { variantId: gid('ProductVariant', 'bouquet_roses'), quantity: 2 },
      codes: { accepted: '10OFF', rejected: 'NOSUCHCODE' },
      shippingAddress: DEMO_SHOP_FIXTURES.shippingAddress,
      buyer: DEMO_SHOP_FIXTURES.buyer,
      gatewayHandlerId: 'sandbox',
    },
    controls,
    close,
  };
});
