/**
 * What the Medusa fidelity suites share: the run's real Medusa server (test/helpers/medusa-global.ts),
 * addresses in its three tax situations (Illinois: no tax; Ontario: 5 % GST on top of prices;
 * Berlin: the tax-inclusive region's 19 % VAT inside them), quote requests that ship every
 * physical line, and Medusa's own view of a cart or an order, read the way a merchant reads it.
 */
import type { Adapter, PaymentCredential, PostalAddress, Quote, QuoteRequest } from '../../../../adapters/contract.js';
import type { MedusaAdapter } from '../../../../adapters/medusa/index.js';
import type { MedusaSettings } from '../../../../adapters/medusa/settings.js';
import { medusaAdapter, medusaCall, type RunningMedusa } from '../../../helpers/medusa-store.js';

export const CHICAGO: PostalAddress = {
  firstName: 'Jane',
  lastName: 'Doe',
  streetAddress: '123 Main St',
  locality: 'Chicago',
  region: 'IL',
  country: 'US',
  postalCode: '60601',
};
export const TORONTO: PostalAddress = {
  ...CHICAGO,
  streetAddress: '100 Queen St W',
  locality: 'Toronto',
  region: 'ON',
  country: 'CA',
  postalCode: 'M5H 2N2',
};
export const BERLIN: PostalAddress = {
  ...CHICAGO,
  streetAddress: 'Unter den Linden 1',
  locality: 'Berlin',
  region: 'BE',
  country: 'DE',
  postalCode: '10117',
};

export const BUYER = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe' };

export const CARD = {
  accepted: { type: 'PAYMENT_GATEWAY', token: 'success_token' },
  declined: { type: 'PAYMENT_GATEWAY', token: 'fail_token' },
  needsAuthentication: { type: 'PAYMENT_GATEWAY', token: 'action_token' },
  settlesLater: { type: 'PAYMENT_GATEWAY', token: 'async_token' },
} satisfies Record<string, PaymentCredential>;

/** The adapter on the run's store, in the default region unless the settings say otherwise. */
export const adapterFor = (store: RunningMedusa, settings: Partial<MedusaSettings> = {}): Promise<MedusaAdapter> =>
  medusaAdapter(store, { settings });

let lineCount = 0;

/** Lines of the demo shop by demo variant id (config/demo), each with a fresh gateway line id. */
export function lines(store: RunningMedusa, wanted: Record<string, number>): QuoteRequest['lines'] {
  return Object.entries(wanted).map(([demoId, quantity]) => ({
    lineId: `l${++lineCount}`,
    variantId: store.seed.variants[demoId]!,
    quantity,
  }));
}

/** A request that ships every line to `address` (one shipping method), with `selectedOptions` per group key. */
export function shippingRequest(
  request: Pick<QuoteRequest, 'lines'> & Partial<QuoteRequest>,
  address: PostalAddress,
  options: { selected?: Record<string, string>; multiGroup?: boolean } = {},
): QuoteRequest {
  return {
    discountCodes: [],
    buyer: BUYER,
    ...request,
    fulfillment: {
      multiGroup: options.multiGroup ?? true,
      methods: [
        {
          methodId: 'm1',
          type: 'shipping',
          lineIds: request.lines.map((l) => l.lineId),
          destination: { address },
          ...(options.selected && { selectedOptions: options.selected }),
        },
      ],
    },
  };
}

/** Each group's cheapest option selected, then quoted again: the request a checkout completes with, and its quote. */
export async function readyQuote(adapter: Adapter, request: QuoteRequest): Promise<{ request: QuoteRequest; quote: Quote }> {
  const first = await adapter.quote(request);
  const selected = Object.fromEntries(first.fulfillment![0]!.groups.map((g) => [g.key, g.options[0]!.id]));
  const ready = {
    ...request,
    handle: first.handle!,
    fulfillment: { ...request.fulfillment!, methods: [{ ...request.fulfillment!.methods[0]!, selectedOptions: selected }] },
  };
  return { request: ready, quote: await adapter.quote(ready) };
}

/** Medusa's amount (major units) in minor units of a two-decimal currency. */
export const cents = (amount: number) => Math.round(amount * 100);

/** The cart as Medusa prices it (Store API). */
export async function medusaCart(store: RunningMedusa, cartId: string) {
  const fields = 'id,total,subtotal,item_subtotal,tax_total,shipping_subtotal,discount_subtotal,*items,*shipping_methods';
  return (await medusaCall(store, 'store', 'GET', `/store/carts/${cartId}?fields=${fields}`)).cart;
}

/** The order as Medusa's Admin API answers it. */
export async function medusaOrder(store: RunningMedusa, orderId: string, fields: string) {
  return (await medusaCall(store, 'admin', 'GET', `/admin/orders/${orderId}?fields=${fields}`)).order;
}

let references = 0;
export const reference = (what: string) => `chk_fidelity_${what}_${Date.now().toString(36)}_${++references}`;

/** The merchant fulfils every shipped line, then takes `quantity` of one line back: a return requested and received. */
export async function returnOnMedusa(store: RunningMedusa, orderId: string, itemId: string, quantity: number): Promise<string> {
  const location_id = store.seed.stockLocationId;
  const order = await medusaOrder(store, orderId, 'id,*items');
  const shipped = (order.items as Array<{ id: string; quantity: number; requires_shipping: boolean }>).filter((i) => i.requires_shipping);
  await medusaCall(store, 'admin', 'POST', `/admin/orders/${orderId}/fulfillments`, {
    items: shipped.map((i) => ({ id: i.id, quantity: i.quantity })),
    location_id,
  });
  const { return: opened } = await medusaCall(store, 'admin', 'POST', '/admin/returns', { order_id: orderId, location_id });
  const items = [{ id: itemId, quantity }];
  await medusaCall(store, 'admin', 'POST', `/admin/returns/${opened.id}/request-items`, { items });
  await medusaCall(store, 'admin', 'POST', `/admin/returns/${opened.id}/request`, {});
  await medusaCall(store, 'admin', 'POST', `/admin/returns/${opened.id}/receive`, {});
  await medusaCall(store, 'admin', 'POST', `/admin/returns/${opened.id}/receive-items`, { items });
  await medusaCall(store, 'admin', 'POST', `/admin/returns/${opened.id}/receive/confirm`, {});
  return opened.id as string;
}
