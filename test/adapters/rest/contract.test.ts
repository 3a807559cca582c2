/**
 * The generic REST adapter through the shared adapter contract suite against the reference store
 * (examples/rest-store) over real HTTP: configured by config/rest-demo/tenants/flowers.yaml (one
 * call per operation, the store's whole-cart API; with the store's payment challenge), by
 * examples/rest-tenants/tenants/flowers-cart.yaml (call sequences on the store's cart-side API,
 * mappings in files), by examples/rest-tenants/tenants/flowers-stateless.yaml (no backend handle,
 * no checkout page), and flowers.yaml as a client that keeps only the store's references
 * (storeReferencesOnly) and in front of a store whose prices include tax, and all of these at once
 * with pickup (flowers.yaml maps the store's shops).
 */
import { DEMO_CARD_TOKENS, DEMO_CHALLENGE_TOKEN, DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import { runAdapterContract, type BackendFault, type SignedDelivery } from '../contract/contract-suite.js';
import type { FaultMode } from '../../../examples/rest-store/faults.js';
import type { RestStoreOptions } from '../../../examples/rest-store/server.js';
import type { Delivery } from '../../../examples/rest-store/webhooks.js';
import {
  FLOWERS_CART_FILE,
  FLOWERS_FILE,
  FLOWERS_STATELESS_FILE,
  flowersAdapter,
  startRestStore,
  storeReferencesOnly,
} from '../../helpers/rest-store.js';

const FAULTS: Record<BackendFault, FaultMode> = { throttle: 'throttle', server_error: 'error', garbage: 'garbage', hang: 'hang' };

const signed = (delivery: Delivery | undefined): SignedDelivery | null =>
  delivery ? { headers: delivery.headers, body: Buffer.from(delivery.body) } : null;

interface Variant {
  tenantFile: string;
  settings?: Record<string, unknown>;
  store?: Partial<RestStoreOptions>;
  /** Its place_order mapping maps the store's payment challenge (202). */
  challenge?: boolean;
}

const TENANTS: Array<[string, Variant]> = [
  ['rest (reference store)', { tenantFile: FLOWERS_FILE, challenge: true }],
  ['rest (reference store, cart-side API)', { tenantFile: FLOWERS_CART_FILE }],
  ['rest (reference store, stateless: no handle, no checkout page)', { tenantFile: FLOWERS_STATELESS_FILE }],
  ['rest (reference store, store references only)', { tenantFile: FLOWERS_FILE, settings: storeReferencesOnly(), challenge: true }],
  ['rest (reference store, prices include tax)', { tenantFile: FLOWERS_FILE, store: { pricesIncludeTax: true } }],
  // The issue 45 walk in one store: a payment challenge, store references only, tax-inclusive prices and pickup.
  [
    'rest (reference store: challenge, store references only, tax included, pickup)',
    { tenantFile: FLOWERS_FILE, settings: storeReferencesOnly(), store: { pricesIncludeTax: true }, challenge: true },
  ],
];

/** The buyer's decision on the store's payment page; the order id from the thank-you page. */
async function decide(url: string, outcome: 'approve' | 'fail'): Promise<string | null> {
  const page = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${outcome}`,
  });
  return /id="order">#(\d+)</.exec(await page.text())?.[1] ?? null;
}

for (const [name, { tenantFile, settings = {}, store: storeOptions = {}, challenge }] of TENANTS)
  runAdapterContract(name, async () => {
    const store = await startRestStore(storeOptions);
    const adapter = await flowersAdapter(store, Date.now, settings, tenantFile);
    const lastDelivery = (type: string, orderId: string) =>
      [...store.webhooks.deliveries]
        .reverse()
        .find((d) => d.type === type && (JSON.parse(d.body) as { data: { order_id: string } }).data.order_id === orderId);
    return {
      adapter,
      fixtures: {
        ...DEMO_SHOP_FIXTURES,
        gatewayHandlerId: 'sandbox',
        storeCharged: { handlerId: 'sandbox', ...DEMO_CARD_TOKENS, ...(challenge && { challenge: DEMO_CHALLENGE_TOKEN }) },
      },
      controls: {
        failNext: (fault, count = 1) => store.faults.inject({ mode: FAULTS[fault], count, retryAfterSeconds: 1 }),
        reset: () => store.faults.clear(),
        async payHandoff({ url, address, buyer }) {
          const form = new URLSearchParams({
            email: buyer.email,
            card_token: 'success_token',
            line1: address.streetAddress ?? '',
            city: address.locality ?? '',
            state: address.region ?? '',
            zip: address.postalCode ?? '',
            country: address.country ?? 'US',
          });
          const page = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
          const orderId = /id="order">#(\d+)</.exec(await page.text())?.[1];
          if (!orderId) throw new Error(`the store's checkout page did not place the order (HTTP ${page.status})`);
          return { orderId, delivery: signed(lastDelivery('order.created', orderId)) };
        },
        async confirmPayment({ continueUrl }, outcome) {
          const orderId = await decide(continueUrl, outcome);
          return orderId === null ? null : { orderId, delivery: signed(lastDelivery('order.created', orderId)) };
        },
        async shipOrder(orderId) {
          const shipped = await store.call('POST', `/orders/${orderId}/events`, { type: 'shipped', carrier: 'UPS', tracking_no: '1Z999' });
          if (shipped.status !== 200) throw new Error(`the store did not ship order ${orderId}: ${JSON.stringify(shipped.body)}`);
          return signed(lastDelivery('order.updated', orderId));
        },
        pingDelivery: () => signed(store.webhooks.send('ping', {})),
      },
      close: () => store.close(),
    };
  });
