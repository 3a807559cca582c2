import { describe, expect, it } from 'vitest';
import type { PlaceOrderRequest, QuoteRequest } from '../../../adapters/contract.js';
import { CHICAGO, demoStore, MapStore, request, shipTo } from './fixtures.js';

const checkout: QuoteRequest = request(
  [
    ['bouquet_roses', 2],
    ['pot_ceramic', 1],
    ['ebook_flower_care', 1],
  ],
  {
    discountCodes: ['10OFF'],
    fulfillment: shipTo(CHICAGO, ['l1', 'l2', 'l3'], { florist: 'std-ship', warehouse: 'exp-ship-us' }, true),
  },
);

async function placing(reference: string, quote = checkout) {
  const { adapter, store } = await demoStore();
  const total = (await adapter.quote(quote)).totals.total;
  const order: PlaceOrderRequest = {
    reference,
    quote,
    expectedTotal: total,
    buyer: { email: 'john.doe@example.com', firstName: 'John' },
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_1', amount: total } },
  };
  return { adapter, store, order, total };
}

describe('demo store orders', () => {
  it('places an order whose snapshot carries the quoted lines, totals and delivery promises', async () => {
    const { adapter, order, total } = await placing('chk_1');
    const placed = await adapter.placeOrder(order);
    expect(placed).toMatchObject({ status: 'placed', orderId: expect.stringMatching(/^ord_[0-9a-f]{16}$/) });
    const { orderId } = placed as { orderId: string };
    const snapshot = (await adapter.getOrder(orderId))!;
    expect(snapshot).toMatchObject({
      id: orderId,
      reference: 'chk_1',
      currency: 'USD',
      createdAt: '2026-03-10T12:00:00.000Z',
      events: [],
      adjustments: [],
    });
    expect(snapshot.lines.map((l) => [l.id, l.quantity, l.subtotal, l.discount])).toEqual([
      ['l1', { original: 2, current: 2, fulfilled: 0 }, 7000, 700],
      ['l2', { original: 1, current: 1, fulfilled: 0 }, 1500, 150],
      ['l3', { original: 1, current: 1, fulfilled: 0 }, 900, 90],
    ]);
    // Roses ship free from the florist; the pot goes express from the warehouse.
    expect(snapshot.totals).toEqual({ subtotal: 9400, itemsDiscount: 940, discount: 500, shipping: 2000, tax: 529, total });
    expect(snapshot.expectations.map((e) => [e.id, e.method, e.lines, e.destination?.postalCode ?? null, e.fulfillableOn])).toEqual([
      ['exp_1', 'shipping', [{ id: 'l1', quantity: 2 }], '60601', 'now'],
      ['exp_2', 'shipping', [{ id: 'l2', quantity: 1 }], '60601', 'now'],
      ['exp_3', 'digital', [{ id: 'l3', quantity: 1 }], null, 'now'],
    ]);
    expect(snapshot.expectations[0]!.description).toBe('Standard Shipping: Delivered by USPS in 3-5 days after dispatch');
    // Nothing serves order pages on the demo storefront, so the store claims no permalink (the gateway serves one).
    expect(snapshot).not.toHaveProperty('permalinkUrl');
    expect(await adapter.findOrderByReference('chk_1')).toEqual({ orderId });
  });

  it('creates exactly one order for 50 concurrent calls with one reference', async () => {
    const { adapter, store, order } = await placing('chk_race');
    const results = await Promise.all(Array.from({ length: 50 }, () => adapter.placeOrder(order)));
    const ids = new Set(results.map((r) => (r.status === 'placed' ? r.orderId : r.status)));
    expect(ids.size).toBe(1);
    expect([...store.entries.keys()].filter((k) => k.includes(':order:'))).toHaveLength(1);
  });

  it('answers a retry with the same order even when prices moved since', async () => {
    const { adapter, order } = await placing('chk_retry');
    const first = await adapter.placeOrder(order);
    expect(await adapter.placeOrder({ ...order, expectedTotal: 1 })).toEqual(first);
  });

  it('refuses when the agreed total is no longer the store total', async () => {
    const { adapter, order, total } = await placing('chk_price');
    expect(await adapter.placeOrder({ ...order, expectedTotal: total - 100 })).toEqual({
      status: 'rejected',
      reason: 'price_changed',
      detail: `the total is now ${total}, not ${total - 100}`,
      actualTotal: total,
    });
    expect(await adapter.findOrderByReference('chk_price')).toBeNull();
  });

  it('refuses lines that cannot be sold and checkouts without every option chosen', async () => {
    const soldOut = await placing(
      'chk_stock',
      request([['bouquet_sunflowers', 501]], { fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) }),
    );
    expect(await soldOut.adapter.placeOrder(soldOut.order)).toMatchObject({ status: 'rejected', reason: 'out_of_stock' });
    const unknown = await placing('chk_ghost', request([['ghost', 1]]));
    expect(await unknown.adapter.placeOrder(unknown.order)).toMatchObject({ status: 'rejected', reason: 'incomplete' });
    const unchosen = await placing('chk_option', request([['pot_ceramic', 1]], { fulfillment: shipTo(CHICAGO, ['l1']) }));
    expect(await unchosen.adapter.placeOrder(unchosen.order)).toEqual({
      status: 'rejected',
      reason: 'incomplete',
      detail: 'no fulfillment option selected for lines l1',
    });
  });

  it('records the pickup location as the destination of a pickup order', async () => {
    const pickup = await placing(
      'chk_pickup',
      request([['orchid_white', 1]], {
        fulfillment: {
          multiGroup: false,
          methods: [
            {
              methodId: 'p',
              type: 'pickup',
              lineIds: ['l1'],
              destination: { locationId: 'evanston' },
              selectedOptions: { all: 'pickup-evanston' },
            },
          ],
        },
      }),
    );
    const placed = await pickup.adapter.placeOrder(pickup.order);
    const snapshot = (await pickup.adapter.getOrder((placed as { orderId: string }).orderId))!;
    expect(snapshot.expectations[0]).toMatchObject({ method: 'pickup', destination: { locality: 'Evanston', region: 'IL' } });
  });

  it('keeps orders in the shared state store, apart per tenant, visible to every replica', async () => {
    const store = new MapStore();
    const replicaA = (await demoStore({ store, tenantId: 'demo' })).adapter;
    const replicaB = (await demoStore({ store, tenantId: 'demo' })).adapter;
    const otherTenant = (await demoStore({ store, tenantId: 'other' })).adapter;
    const { order } = await placing('chk_shared');
    const placed = (await replicaA.placeOrder(order)) as { orderId: string };
    expect((await replicaB.getOrder(placed.orderId))?.id).toBe(placed.orderId);
    expect(await replicaB.placeOrder(order)).toEqual(placed);
    expect(await otherTenant.getOrder(placed.orderId)).toBeNull();
    expect(await otherTenant.findOrderByReference('chk_shared')).toBeNull();
  });

  it('knows nothing of unknown orders and references', async () => {
    const { adapter } = await demoStore();
    expect(await adapter.getOrder('ord_missing')).toBeNull();
    expect(await adapter.findOrderByReference('chk_missing')).toBeNull();
    expect(adapter.verifyWebhook({}, Buffer.from('{}'))).toBeNull();
    await expect(adapter.ping()).resolves.toBeUndefined();
  });
});
