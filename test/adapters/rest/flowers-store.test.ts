/**
 * The flowers tenant's mappings against the reference store, beyond the shared contract suite:
 * the store cart kept through the handle (and replaced when the store forgot it), prices that
 * match the demo store's to the cent, each finishing mode, the store's own order line ids, and
 * order changes by webhook and by polling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../../adapters/contract.js';
import type { RestAdapter } from '../../../adapters/rest/index.js';
import { NOW } from '../../helpers/demo-gateway.js';
import { flowersAdapter, startRestStore, type TestRestStore } from '../../helpers/rest-store.js';
import { DEMO_SHOP_FIXTURES } from '../contract/demo-fixtures.js';
import { demoStore, STOREFRONT } from '../memory/fixtures.js';

let store: TestRestStore;
let adapter: RestAdapter;
const now = () => NOW;
beforeAll(async () => {
  store = await startRestStore({ now });
  adapter = await flowersAdapter(store, now, { polling: true });
});
afterAll(() => store.close());

const ADDRESS = DEMO_SHOP_FIXTURES.shippingAddress;

function checkoutRequest(overrides: Partial<QuoteRequest> = {}): QuoteRequest {
  return {
    lines: [
      { lineId: 'li_1', variantId: 'bouquet_roses', quantity: 2 },
      { lineId: 'li_2', variantId: 'ebook_flower_care', quantity: 1 },
    ],
    discountCodes: ['ROSES15', 'NOPE'],
    buyer: { email: 'jane.doe@example.com' },
    fulfillment: {
      multiGroup: false,
      methods: [
        {
          methodId: 'm1',
          type: 'shipping',
          lineIds: ['li_1', 'li_2'],
          destination: { address: ADDRESS },
          selectedOptions: { default: 'exp-ship-us' },
        },
      ],
    },
    ...overrides,
  };
}

describe('REST adapter on the reference store', () => {
  it('prices exactly as the demo store does, with reasons for refused codes', async () => {
    const quote = await adapter.quote(checkoutRequest());
    const { adapter: memory } = await demoStore();
    const reference = await memory.quote({
      ...checkoutRequest(),
      fulfillment: {
        ...checkoutRequest().fulfillment!,
        methods: [{ ...checkoutRequest().fulfillment!.methods[0]!, selectedOptions: { all: 'exp-ship-us' } }],
      },
    });
    expect(quote.totals).toEqual(reference.totals);
    // The same pictures, each on its own store's site (the demo data names them relative to the storefront).
    const onReferenceStore = (url?: string) => url?.replace(STOREFRONT, 'http://store.invalid');
    expect(quote.lines).toEqual(reference.lines.map((line) => ({ ...line, imageUrl: onReferenceStore(line.imageUrl) })));
    expect(quote.taxLines).toEqual(reference.taxLines);
    expect(quote.discounts.rejected).toEqual(reference.discounts.rejected);
    expect(quote.discounts.rejected).toEqual([{ code: 'NOPE', index: 1, reason: 'invalid' }]);
    expect(quote.discounts.applied.find((d) => d.code === 'ROSES15')).toMatchObject({
      amount: 1050,
      allocations: [{ target: { kind: 'line', lineId: 'li_1' }, amount: 1050 }],
    });
    expect(quote.fulfillment![0]!.groups[0]).toMatchObject({ key: 'default', lineIds: ['li_1'], selectedOptionId: 'exp-ship-us' });
    expect(quote.handle).toMatch(/^cart_/);
  });

  it('updates the store cart of the handle, and makes a new one when the store forgot it', async () => {
    const first = await adapter.quote(checkoutRequest());
    await store.control('DELETE', '/calls');
    const again = await adapter.quote({ ...checkoutRequest({ discountCodes: [] }), handle: first.handle! });
    expect(again.handle).toBe(first.handle);
    expect(await store.control('GET', '/calls')).toEqual({ 'PUT /api/v2/carts/:id': 1 });
    await store.control('DELETE', '/carts');
    const renewed = await adapter.quote({ ...checkoutRequest(), handle: first.handle! });
    expect(renewed.handle).not.toBe(first.handle);
    expect(renewed.totals.total).toBe(first.totals.total);
  });

  it('places a gateway-charged order once per reference, with the store line ids mapped to the checkout lines', async () => {
    const request = checkoutRequest();
    const quote = await adapter.quote(request);
    const place = () =>
      adapter.placeOrder({
        reference: 'chk_gw',
        quote: { ...request, handle: quote.handle! },
        expectedTotal: quote.totals.total,
        buyer: { email: 'jane.doe@example.com' },
        payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_1', amount: quote.totals.total } },
      });
    const placed = await place();
    expect(placed).toMatchObject({ status: 'placed', orderId: expect.any(String) });
    expect(await place()).toEqual(placed);
    const orderId = (placed as { orderId: string }).orderId;
    expect(await adapter.findOrderByReference('chk_gw')).toMatchObject({ orderId });
    const order = (await adapter.getOrder(orderId))!;
    expect(order.reference).toBe('chk_gw');
    expect(order.lines.map((l) => [l.id, l.checkoutLineId])).toEqual([
      [`${orderId}-1`, 'li_1'],
      [`${orderId}-2`, 'li_2'],
    ]);
    expect(order.totals.total).toBe(quote.totals.total);
    expect(order.expectations.map((e) => e.method)).toEqual(['shipping', 'digital']);
    expect(await adapter.getOrder('999999')).toBeNull();
  });

  it('refuses a moved total with the actual one, and a card the store declines (store-charged)', async () => {
    const request = checkoutRequest({ discountCodes: [] });
    const quote = await adapter.quote(request);
    const base = { quote: { ...request, handle: quote.handle! }, buyer: { email: 'jane.doe@example.com' } };
    expect(
      await adapter.placeOrder({
        ...base,
        reference: 'chk_moved',
        expectedTotal: 1,
        payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx', amount: 1 } },
      }),
    ).toMatchObject({ status: 'rejected', reason: 'price_changed', actualTotal: quote.totals.total });
    const storeCharged = (token: string) => ({
      mode: 'store_charged' as const,
      handlerId: 'sandbox',
      credential: { type: 'PAYMENT_GATEWAY', token },
    });
    expect(
      await adapter.placeOrder({
        ...base,
        reference: 'chk_declined',
        expectedTotal: quote.totals.total,
        payment: storeCharged('fail_token'),
      }),
    ).toMatchObject({
      status: 'rejected',
      reason: 'payment_declined',
    });
    expect(
      await adapter.placeOrder({
        ...base,
        reference: 'chk_paid',
        expectedTotal: quote.totals.total,
        payment: storeCharged('success_token'),
      }),
    ).toMatchObject({
      status: 'placed',
    });
  });

  it('hands off to the store checkout page, and learns the order from the signed webhook and from polling', async () => {
    const request = checkoutRequest();
    const { url, handle } = await adapter.checkoutUrl({ reference: 'chk_handoff', quote: request });
    expect(url).toMatch(new RegExp(`^${store.origin}/checkout/`));
    expect(handle).toMatch(/^cart_/);
    const paid = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=jane.doe%40example.com&card_token=success_token',
    });
    expect(paid.status).toBe(200);
    const delivery = store.webhooks.deliveries.at(-1)!;
    const event = adapter.verifyWebhook(delivery.headers, Buffer.from(delivery.body));
    expect(event).toEqual({
      kind: 'order',
      eventId: delivery.id,
      orderId: expect.any(String),
      topic: 'order.created',
      reference: 'chk_handoff',
      storeReference: expect.stringMatching(/^cart_/),
    });
    expect(
      adapter.verifyWebhook(
        {
          ...delivery.headers,
          'x-shop-signature': delivery.headers['x-shop-signature']!.replace(
            /v1=(.)/,
            (_, first: string) => `v1=${first === '0' ? '1' : '0'}`,
          ),
        },
        Buffer.from(delivery.body),
      ),
    ).toBeNull();
    expect(adapter.verifyWebhook(delivery.headers, Buffer.from(delivery.body.replace('chk_handoff', 'chk_other')))).toBeNull();
    const changes = await adapter.ordersChangedSince!(new Date(NOW).toISOString());
    expect(changes).toContainEqual({
      orderId: (event as { orderId: string }).orderId,
      reference: 'chk_handoff',
      storeReference: (event as { storeReference: string }).storeReference,
      updatedAt: new Date(NOW).toISOString(),
    });
  });
});
