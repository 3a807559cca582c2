/**
 * The WooCommerce adapter on a fresh simulated store: the simulator on port 0, the adapter
 * pointed at it over plain HTTP (OAuth 1.0a signatures, as a real plain-HTTP store needs), the
 * gateway's memory state store, and the simulator's controls as the contract suite drives them.
 */
import type { BuyerContact, PostalAddress } from '../../../adapters/contract.js';
import { createWooCommerceAdapter, type WooCommerceAdapter } from '../../../adapters/woocommerce/index.js';
import type { WooCommerceSettings } from '../../../adapters/woocommerce/settings.js';
import { DEFAULT_KEY, startWooSimulator, type WooSimulator, type WooSimulatorOptions } from '../../../simulators/woocommerce/server.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import type { BackendFault, ContractFixtures, SimulatorControls } from '../contract/contract-suite.js';
import { DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';

export const WEBHOOK_SECRET = 'woo-webhook-secret-for-tests';
/** A Chicago address the store ships to (Illinois tax, US rates), and its buyer. */
export const ADDRESS = DEMO_SHOP_FIXTURES.shippingAddress;
export const BUYER = DEMO_SHOP_FIXTURES.buyer;

export interface WooSubject {
  sim: WooSimulator;
  adapter: WooCommerceAdapter;
  store: MemoryStore;
  close: () => Promise<void>;
}

export async function wooSubject(
  options: { simulator?: WooSimulatorOptions; settings?: Partial<WooCommerceSettings>; now?: () => number } = {},
): Promise<WooSubject> {
  const sim = await startWooSimulator(options.simulator);
  const store = new MemoryStore();
  const adapter = await createWooCommerceAdapter({
    settings: { store_url: sim.url, store_charged: { payment_method: 'simulated_card' }, request_timeout_ms: 2_000, ...options.settings },
    consumerKey: DEFAULT_KEY.consumerKey,
    consumerSecret: DEFAULT_KEY.consumerSecret,
    webhookSecret: WEBHOOK_SECRET,
    store,
    tenantId: 'flowers-woo',
    now: options.now ?? Date.now,
  });
  return {
    sim,
    adapter,
    store,
    close: async () => {
      await sim.close();
      await store.close();
    },
  };
}

export function fixturesOf(sim: WooSimulator): ContractFixtures {
  const id = (demoId: string) => String(sim.controls.idOf(demoId));
  return {
    currency: 'USD',
    searchText: 'rose',
    product: { id: id('florist_tee'), optionNames: ['Size', 'Color'], variantId: id('florist_tee_m_green') },
    sku: { value: 'FLW-ROSE-12', variantId: id('bouquet_roses') },
    handle: { value: 'red-rose-bouquet', productId: id('bouquet_roses') },
    line: { variantId: id('bouquet_roses'), quantity: 2 },
    codes: { accepted: '10OFF', rejected: 'SPRING2025', rejectedReason: 'expired' },
    shippingAddress: ADDRESS,
    buyer: BUYER,
    gatewayHandlerId: 'sandbox',
    storeCharged: {
      handlerId: 'card',
      accepted: { type: 'card', token: 'success_token' },
      declined: { type: 'card', token: 'fail_token' },
      challenge: { type: 'card', token: 'action_token' },
    },
  };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
  redirect: 'manual' as const,
});

/** The buyer pays a pending order on its "Pay for order" page (a 3-D Secure challenge: approves or fails it). */
const payOrderPage = (url: string, token = 'success_token') => fetch(url, form({ payment_method: 'simulated_card', token }));

/** The buyer opens the store's checkout link, fills in the checkout form and places the order. */
async function checkOutOnStore(url: string, address: PostalAddress, buyer: BuyerContact & { email: string }) {
  const page = await (await fetch(url)).text();
  const hidden = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
  const fields = {
    ...hidden,
    email: buyer.email,
    first_name: address.firstName ?? buyer.firstName ?? '',
    last_name: address.lastName ?? buyer.lastName ?? '',
    address_1: address.streetAddress ?? '',
    city: address.locality ?? '',
    state: address.region ?? '',
    postcode: address.postalCode ?? '',
    country: address.country ?? '',
    token: 'success_token',
  };
  return fetch(new URL('/checkout/', url), form(fields));
}

const FAULTS: Record<BackendFault, Parameters<WooSimulator['controls']['fail']>[0]['kind']> = {
  throttle: 'throttle',
  server_error: 'server_error',
  garbage: 'php_warning',
  hang: 'hang',
};

export function controlsOf(sim: WooSimulator): SimulatorControls {
  return {
    failNext: (fault, count = 1) => sim.controls.fail({ kind: FAULTS[fault], times: count }),
    reset: () => sim.controls.clearFaults(),
    async payHandoff({ url, address, buyer }) {
      const paid = url.includes('/order-pay/') ? await payOrderPage(url) : await checkOutOnStore(url, address, buyer);
      if (paid.status !== 302) throw new Error(`paying ${url} answered ${paid.status}`);
      const orderId = /order-received\/(\d+)\//.exec(paid.headers.get('location') ?? '')![1]!;
      const delivery = sim.controls.signedDelivery(
        WEBHOOK_SECRET,
        url.includes('/order-pay/') ? 'order.updated' : 'order.created',
        orderId,
      );
      return { orderId, delivery: { headers: delivery.headers, body: delivery.rawBody } };
    },
    async confirmPayment({ continueUrl }, outcome) {
      const answered = await payOrderPage(continueUrl, outcome === 'approve' ? 'success_token' : 'fail_token');
      if (outcome === 'fail') {
        if (answered.status !== 200) throw new Error(`failing the challenge at ${continueUrl} answered ${answered.status}`);
        return null;
      }
      if (answered.status !== 302) throw new Error(`approving at ${continueUrl} answered ${answered.status}`);
      const orderId = /order-received\/(\d+)\//.exec(answered.headers.get('location') ?? '')![1]!;
      const delivery = sim.controls.signedDelivery(WEBHOOK_SECRET, 'order.updated', orderId);
      return { orderId, delivery: { headers: delivery.headers, body: delivery.rawBody } };
    },
    async shipOrder(orderId) {
      sim.controls.ship(orderId, {
        trackingNumber: '1Z999AA10123456784',
        provider: 'UPS',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784',
      });
      const delivery = sim.controls.signedDelivery(WEBHOOK_SECRET, 'order.updated', orderId);
      return { headers: delivery.headers, body: delivery.rawBody };
    },
    pingDelivery: () => ({
      headers: { 'user-agent': 'WooCommerce/10.2.0 Hookshot (WordPress/6.8.2)', 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from('webhook_id=7'),
    }),
  };
}
