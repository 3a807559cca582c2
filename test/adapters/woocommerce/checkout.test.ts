/**
 * Carts and checkouts priced in the store's own cart (Store API, kept by its Cart-Token), codes
 * refused with the reason the coupon's rules give, and each way of finishing: recorded as paid
 * (gateway_charged), charged by the store's gateway (store_charged), handed to the order's
 * payment page (handoff). Never a refund.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlaceOrderRequest, QuoteRequest } from '../../../adapters/contract.js';
import { decodeHandle } from '../../../adapters/woocommerce/cart-handle.js';
import { WooHttp } from '../../../adapters/woocommerce/http.js';
import { ADDRESS, BUYER, fixturesOf, WEBHOOK_SECRET, wooSubject, type WooSubject } from './harness.js';

let subject: WooSubject;
const id = (demoId: string) => String(subject.sim.controls.idOf(demoId));

function checkoutRequest(selected?: string, codes: string[] = [], handle?: string): QuoteRequest {
  return {
    ...(handle && { handle }),
    lines: [
      { lineId: 'li_1', variantId: id('bouquet_roses'), quantity: 2 },
      { lineId: 'li_2', variantId: id('ebook_flower_care'), quantity: 1 },
    ],
    buyer: BUYER,
    discountCodes: codes,
    fulfillment: {
      multiGroup: false,
      methods: [
        {
          methodId: 'm_1',
          type: 'shipping',
          lineIds: ['li_1', 'li_2'],
          destination: { address: ADDRESS },
          ...(selected && { selectedOptions: { 'package-0': selected } }),
        },
      ],
    },
  };
}

beforeAll(async () => {
  subject = await wooSubject();
});
afterAll(() => subject?.close());

describe('quote', () => {
  it("reads the store's cart once per batch: every step before the last answers trimmed (_fields), a refusal whole", async () => {
    const sent = vi.spyOn(WooHttp.prototype, 'store');
    try {
      const quote = await subject.adapter.quote(checkoutRequest(undefined, ['nope']));
      expect(quote.lines.map((l) => l.quantity)).toEqual([2, 1]);
      expect(quote.discounts.rejected).toEqual([expect.objectContaining({ code: 'nope', index: 0, reason: expect.any(String) })]);
      const batch = await sent.mock.results.at(-1)!.value;
      const responses = (batch.body as { responses: Array<{ status: number; body: Record<string, unknown> }> }).responses;
      const carts = responses.filter((r) => 'items' in r.body);
      expect(carts).toHaveLength(1);
      expect(responses.at(-1)).toBe(carts[0]);
    } finally {
      sent.mockRestore();
    }
  });

  it('prices lines, a code, shipping and tax as the store does, in the store cart it keeps by token', async () => {
    const first = await subject.adapter.quote(checkoutRequest(undefined, ['10off']));
    expect(first.handle).toMatch(/^ey[\w.-]+#\w+$/);
    const group = first.fulfillment![0]!.groups[0]!;
    expect(group.options.map((o) => [o.title, o.amount])).toEqual([
      ['Standard Shipping', 500],
      ['Express Shipping (US)', 1500],
    ]);
    expect(group.lineIds).toEqual(['li_1']);
    expect(first.totals.shipping).toBeNull();

    subject.sim.controls.resetCalls();
    const second = await subject.adapter.quote(checkoutRequest(group.options[1]!.id, ['10off'], first.handle));
    expect(subject.sim.controls.calls()).toEqual([{ method: 'POST', route: '/wc/store/v1/batch' }]);
    expect(second.handle).toBe(first.handle);
    expect(second.fulfillment![0]!.groups[0]!.selectedOptionId).toBe(group.options[1]!.id);
    // 7000 + 900, 10% off (790), express 1500, Illinois 6.25% rounded per line as WooCommerce does (6300 -> 394, 810 -> 51).
    expect(second.totals).toEqual({ subtotal: 7900, itemsDiscount: 790, discount: 0, shipping: 1500, tax: 445, total: 9055 });
    expect(second.discounts.applied).toEqual([
      expect.objectContaining({
        code: '10off',
        amount: 790,
        method: 'each',
        allocations: [
          { target: { kind: 'line', lineId: 'li_1' }, amount: 700 },
          { target: { kind: 'line', lineId: 'li_2' }, amount: 90 },
        ],
      }),
    ]);
    expect(second.lines.map((l) => [l.lineId, l.unitPrice, l.requiresShipping])).toEqual([
      ['li_1', 3500, true],
      ['li_2', 900, false],
    ]);
  });

  it("says why each code was refused, from the coupon's rules", async () => {
    const quote = await subject.adapter.quote({
      lines: [{ lineId: 'li_1', variantId: id('pot_ceramic'), quantity: 1 }],
      buyer: { email: 'someone@example.com' },
      discountCodes: ['SPRING2025', 'NOSUCHCODE', 'BIG50', 'FRIENDS30', 'THANKYOU5', 'ROSES15', '10OFF', '10off', 'SOLO25'],
    });
    expect(quote.discounts.rejected.map((r) => [r.code, r.reason])).toEqual([
      ['SPRING2025', 'expired'],
      ['NOSUCHCODE', 'invalid'],
      ['BIG50', 'not_applicable'],
      ['FRIENDS30', 'user_ineligible'],
      ['THANKYOU5', 'invalid'],
      ['ROSES15', 'not_applicable'],
      ['10OFF', 'combination_disallowed'],
      ['10off', 'already_applied'],
    ]);
    expect(quote.discounts.applied.map((d) => d.code)).toEqual(['SOLO25']);
    const guest = await subject.adapter.quote({
      lines: [{ lineId: 'li_1', variantId: id('pot_ceramic'), quantity: 1 }],
      discountCodes: ['MEMBER15'],
    });
    // Without an email the store accepts a restricted code until checkout; the gateway is told who may use it.
    expect(guest.discounts.applied.map((d) => d.code)).toEqual(['MEMBER15']);
  });

  it('reports lines the store cannot sell and prices a card with the message the buyer picked', async () => {
    const [card] = await subject.adapter.lookup([id('greeting_card')]);
    const thankYou = card!.product.variants.find((v) => v.title === 'Large / Thank You')!;
    const quote = await subject.adapter.quote({
      lines: [
        { lineId: 'a', variantId: id('gardenias'), quantity: 1 },
        { lineId: 'b', variantId: id('florist_tee_l_green'), quantity: 20 },
        { lineId: 'c', variantId: thankYou.id, quantity: 2 },
        { lineId: 'd', variantId: '999999', quantity: 1 },
        { lineId: 'e', variantId: id('wreath_holiday'), quantity: 1 },
      ],
      discountCodes: [],
    });
    expect(quote.lineProblems).toEqual([
      { lineId: 'd', code: 'not_found' },
      { lineId: 'e', code: 'discontinued' },
      { lineId: 'a', code: 'out_of_stock' },
      { lineId: 'b', code: 'insufficient_stock', available: 15 },
    ]);
    expect(quote.lines).toEqual([
      expect.objectContaining({ lineId: 'c', variantId: thankYou.id, unitPrice: 650, subtotal: 1300, variantTitle: 'Large / Thank You' }),
    ]);
  });

  it('replaces a cart token the store no longer accepts', async () => {
    const first = await subject.adapter.quote(checkoutRequest());
    subject.sim.controls.expireCart(decodeHandle(first.handle)!.token);
    const again = await subject.adapter.quote(checkoutRequest(undefined, [], first.handle));
    expect(again.lines).toHaveLength(2);
    const forged = await subject.adapter.quote(checkoutRequest(undefined, [], 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoidF94In0.bad'));
    expect(forged.handle).not.toBe('eyJhbGciOiJIUzI1NiJ9.eyJ1c2VyX2lkIjoidF94In0.bad');
    expect(forged.lines).toHaveLength(2);
  });
});

async function readyCheckout(codes: string[] = []) {
  const first = await subject.adapter.quote(checkoutRequest(undefined, codes));
  const rate = first.fulfillment![0]!.groups[0]!.options[0]!.id;
  const request = checkoutRequest(rate, codes, first.handle);
  const quote = await subject.adapter.quote(request);
  return { request, quote };
}

describe('finishing a checkout', () => {
  it("gateway_charged: records the order as paid with the handler's transaction, the quoted rate and the reference, once", async () => {
    const { request, quote } = await readyCheckout(['10OFF']);
    const place: PlaceOrderRequest = {
      reference: 'chk_gateway_1',
      quote: request,
      expectedTotal: quote.totals.total,
      buyer: BUYER,
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'txn_123', amount: quote.totals.total } },
    };
    const placed = await subject.adapter.placeOrder(place);
    expect(placed).toMatchObject({ status: 'placed' });
    const orderId = (placed as { orderId: string }).orderId;
    const order = subject.sim.store.orders.get(Number(orderId))!;
    expect(order).toMatchObject({ status: 'processing', transactionId: 'txn_123', total: quote.totals.total, createdVia: 'rest-api' });
    expect(order.shippingLines.map((s) => [s.methodTitle, s.total])).toEqual([['Standard Shipping', 500]]);
    expect(order.meta.find((m) => m.key === '_proto_reference')?.value).toBe('chk_gateway_1');
    expect(order.refunds).toEqual([]);

    subject.sim.controls.resetCalls();
    // Asked again: the same answer, its order page included, without a store call.
    expect(await subject.adapter.placeOrder(place)).toEqual(placed);
    expect(subject.sim.controls.calls()).toEqual([]);
    const { status: _placed, ...found } = placed as Extract<typeof placed, { status: 'placed' }>;
    expect(await subject.adapter.findOrderByReference('chk_gateway_1')).toEqual(found);
  });

  it("gateway_charged: refuses when the store's total moved, placing nothing", async () => {
    const { request, quote } = await readyCheckout();
    const before = subject.sim.store.orders.size;
    const result = await subject.adapter.placeOrder({
      reference: 'chk_gateway_2',
      quote: request,
      expectedTotal: quote.totals.total - 1,
      buyer: BUYER,
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'txn_2', amount: quote.totals.total - 1 } },
    });
    expect(result).toEqual({ status: 'rejected', reason: 'price_changed', detail: expect.any(String), actualTotal: quote.totals.total });
    expect(subject.sim.store.orders.size).toBe(before);
  });

  it("store_charged: the store's own gateway charges the credential; a decline is payment_declined", async () => {
    const declined = await readyCheckout();
    const base = { quote: declined.request, expectedTotal: declined.quote.totals.total, buyer: BUYER };
    const refused = await subject.adapter.placeOrder({
      ...base,
      reference: 'chk_store_1',
      payment: { mode: 'store_charged', handlerId: 'card', credential: { type: 'card', token: 'fail_token' } },
    });
    expect(refused).toMatchObject({ status: 'rejected', reason: 'payment_declined', detail: 'Your card was declined.' });
    const paid = await subject.adapter.placeOrder({
      ...base,
      reference: 'chk_store_1',
      payment: { mode: 'store_charged', handlerId: 'card', credential: { type: 'card', token: 'success_token' } },
    });
    expect(paid).toMatchObject({ status: 'placed' });
    const order = subject.sim.store.orders.get(Number((paid as { orderId: string }).orderId))!;
    expect(order).toMatchObject({
      status: 'processing',
      createdVia: 'store-api',
      paymentMethod: 'simulated_card',
      total: declined.quote.totals.total,
    });
    expect(order.meta.find((m) => m.key === '_proto_reference')?.value).toBe('chk_store_1');
  });

  it("handoff: a ready checkout's page is its order's payment page; paying it sends the event naming the checkout", async () => {
    const handoff = await wooSubject();
    try {
      const fixtures = fixturesOf(handoff.sim);
      const request: QuoteRequest = {
        lines: [{ lineId: 'li_1', variantId: fixtures.line.variantId, quantity: 1 }],
        buyer: BUYER,
        discountCodes: [],
        fulfillment: {
          multiGroup: false,
          methods: [{ methodId: 'm', type: 'shipping', lineIds: ['li_1'], destination: { address: ADDRESS } }],
        },
      };
      const open = await handoff.adapter.quote(request);
      const early = await handoff.adapter.checkoutUrl({ reference: 'chk_h1', handle: open.handle!, quote: request });
      expect(early.url).toBe(`${handoff.sim.url}/checkout-link/?products=${fixtures.line.variantId}:1&proto_ref=chk_h1`);

      const rate = open.fulfillment![0]!.groups[0]!.options[0]!.id;
      const ready = {
        ...request,
        handle: open.handle!,
        fulfillment: { multiGroup: false, methods: [{ ...request.fulfillment!.methods[0]!, selectedOptions: { 'package-0': rate } }] },
      };
      const quote = await handoff.adapter.quote(ready);
      handoff.sim.controls.resetCalls();
      const page = await handoff.adapter.checkoutUrl({ reference: 'chk_h1', handle: quote.handle!, quote: ready });
      expect(page.url).toMatch(new RegExp(`^${handoff.sim.url}/checkout/order-pay/\\d+/\\?pay_for_order=true&key=wc_order_`));
      expect(handoff.sim.controls.calls()).toEqual([{ method: 'POST', route: '/wc/v3/orders' }]);
      handoff.sim.controls.resetCalls();
      expect(await handoff.adapter.checkoutUrl({ reference: 'chk_h1', handle: quote.handle!, quote: ready })).toEqual(page);
      expect(handoff.sim.controls.calls()).toEqual([]);
      expect(await handoff.adapter.findOrderByReference('chk_h1')).toBeNull();

      const orderId = /order-pay\/(\d+)\//.exec(page.url)![1]!;
      handoff.sim.controls.payOrder(orderId);
      const delivery = handoff.sim.controls.signedDelivery(WEBHOOK_SECRET, 'order.updated', orderId);
      expect(handoff.adapter.verifyWebhook(delivery.headers, delivery.rawBody)).toEqual({
        kind: 'order',
        eventId: expect.stringMatching(/^[0-9a-f]{32}-[0-9a-f]{16}$/),
        orderId,
        topic: 'order.updated',
        reference: 'chk_h1',
      });
      expect(await handoff.adapter.findOrderByReference('chk_h1')).toMatchObject({ orderId });
      const order = await handoff.adapter.getOrder(orderId);
      expect(order).toMatchObject({ reference: 'chk_h1', totals: { total: quote.totals.total } });
    } finally {
      await handoff.close();
    }
  });
});
