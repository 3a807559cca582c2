/**
 * What the gateway does when a store cannot say something (adapter contract v2, optional
 * capabilities): no rejection reasons -> every refused code is discount_code_invalid with a
 * sentence that claims nothing; no multi-group -> one group per method even for a platform that
 * supports several; store line ids on orders -> the checkout's line ids when the store kept them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter, OrderSnapshot } from '../../adapters/contract.js';
import { renderOrder } from '../../src/capabilities/order/order-shape.js';
import { BUYER, CHICAGO, checkoutGateway, line, PROFILES, type CheckoutGateway } from './checkout/checkout-gateway.js';

const withCapabilities =
  (changes: Partial<Adapter['capabilities']>) =>
  (adapter: Adapter): Adapter =>
    Object.assign(Object.create(adapter) as Adapter, { capabilities: { ...adapter.capabilities, ...changes } });

describe('a store that gives no rejection reasons and cannot split shipments', () => {
  let gw: CheckoutGateway;
  beforeAll(async () => {
    gw = await checkoutGateway({ wrapAdapter: withCapabilities({ rejectionReasons: false, multiGroup: false }) });
  });
  afterAll(() => gw.close());

  it('reports every refused code as discount_code_invalid, never with a reason the store did not give', async () => {
    const cart = (await gw.carts('rest').create({ line_items: [line('pot_ceramic')], discounts: { codes: ['SPRING2025', 'NOSUCHCODE'] } }))
      .body;
    const warnings = cart.messages.filter((m: any) => m.type === 'warning');
    expect(warnings.map((m: any) => [m.type, m.code, m.path, m.content])).toEqual([
      ['warning', 'discount_code_invalid', '$.discounts.codes[0]', 'Code "SPRING2025" was not accepted by the store.'],
      ['warning', 'discount_code_invalid', '$.discounts.codes[1]', 'Code "NOSUCHCODE" was not accepted by the store.'],
    ]);
  });

  it('gives a multi-group platform one group per method', async () => {
    const client = gw.client('rest', PROFILES.multiGroup);
    const shipping = { type: 'shipping', destinations: [CHICAGO] };
    const body = (
      await client.create({ line_items: [line('bouquet_roses'), line('pot_ceramic')], buyer: BUYER, fulfillment: { methods: [shipping] } })
    ).body;
    expect(body.fulfillment.methods[0].groups).toHaveLength(1);
    expect(body.fulfillment.methods[0].groups[0].line_item_ids).toEqual(body.line_items.map((l: any) => l.id));
  });
});

describe('store line ids on orders', () => {
  const order: OrderSnapshot = {
    id: 'ord_1',
    currency: 'USD',
    createdAt: '2026-03-10T12:00:00Z',
    lines: [
      {
        id: 'gid://shop/LineItem/11',
        checkoutLineId: 'li_1',
        variantId: 'v1',
        productId: 'p1',
        title: 'Roses',
        unitPrice: 3500,
        quantity: { original: 1, current: 1, fulfilled: 1 },
        subtotal: 3500,
        discount: 0,
      },
      {
        id: 'gid://shop/LineItem/12',
        variantId: 'v2',
        productId: 'p2',
        title: 'Pot',
        unitPrice: 1500,
        quantity: { original: 1, current: 1, fulfilled: 0 },
        subtotal: 1500,
        discount: 0,
      },
    ],
    expectations: [
      {
        id: 'exp_1',
        lines: [
          { id: 'gid://shop/LineItem/11', quantity: 1 },
          { id: 'gid://shop/LineItem/12', quantity: 1 },
        ],
        method: 'shipping',
      },
    ],
    events: [
      {
        id: 'ev_1',
        occurredAt: '2026-03-11T12:00:00Z',
        type: 'shipped',
        lines: [{ id: 'gid://shop/LineItem/11', quantity: 1 }],
        trackingNumber: '1Z',
        trackingUrl: 'https://t.example/1Z',
      },
    ],
    adjustments: [
      {
        id: 'adj_1',
        type: 'refund',
        occurredAt: '2026-03-12T12:00:00Z',
        status: 'completed',
        lines: [{ id: 'gid://shop/LineItem/12', quantity: -1 }],
        amount: -1500,
      },
    ],
    totals: { subtotal: 5000, itemsDiscount: 0, discount: 0, shipping: 0, tax: 0, total: 5000 },
  };

  it("shows the checkout's line id where the store kept it, the store's own otherwise, the same in every part of the order", () => {
    const body = renderOrder(order, { checkoutId: 'chk_1', permalinkUrl: 'https://shop.example/orders/1' });
    expect(body.line_items.map((l) => l.id)).toEqual(['li_1', 'gid://shop/LineItem/12']);
    expect(body.fulfillment.expectations[0]!.line_items.map((l) => l.id)).toEqual(['li_1', 'gid://shop/LineItem/12']);
    expect(body.fulfillment.events[0]!.line_items).toEqual([{ id: 'li_1', quantity: 1 }]);
    expect(body.adjustments![0]!.line_items).toEqual([{ id: 'gid://shop/LineItem/12', quantity: -1 }]);
  });
});
