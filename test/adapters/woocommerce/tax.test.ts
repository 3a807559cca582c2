/**
 * Tax on stores that show or enter prices including tax: the Store API's cart item `prices`
 * follow `woocommerce_tax_display_cart` (src/StoreApi/Schemas/V1/CartItemSchema.php), so the
 * adapter prices lines from the line totals and their tax, checks its quote against the cart's
 * `total_price`, and the order the store records totals what the agent was quoted. A store whose
 * prices include tax (`woocommerce_prices_include_tax`, read from `wc/v3/settings/tax`) is quoted
 * its gross prices with the tax they contain as `includedTax`; shipping tax is still added.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../../adapters/contract.js';
import { ADDRESS, BUYER, wooSubject, type WooSubject } from './harness.js';

let subject: WooSubject | undefined;
afterEach(async () => {
  await subject?.close();
  subject = undefined;
});

function request(sim: WooSubject['sim'], selected?: string, handle?: string): QuoteRequest {
  const id = (demoId: string) => String(sim.controls.idOf(demoId));
  return {
    ...(handle && { handle }),
    lines: [
      { lineId: 'li_1', variantId: id('bouquet_roses'), quantity: 2 },
      { lineId: 'li_2', variantId: id('ebook_flower_care'), quantity: 1 },
    ],
    buyer: BUYER,
    discountCodes: ['10off'],
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

async function quoteWithExpress(s: WooSubject) {
  const first = await s.adapter.quote(request(s.sim));
  const express = first.fulfillment![0]!.groups[0]!.options[1]!.id;
  const req = request(s.sim, express, first.handle);
  return { req, quote: await s.adapter.quote(req) };
}

describe('a store that enters prices without tax and displays cart prices with tax', () => {
  it('quotes net unit prices and adds the tax once', async () => {
    subject = await wooSubject({ simulator: { taxDisplayCart: 'incl' } });
    const { quote } = await quoteWithExpress(subject);
    expect(quote.lines.map((l) => [l.lineId, l.unitPrice, l.subtotal])).toEqual([
      ['li_1', 3500, 7000],
      ['li_2', 900, 900],
    ]);
    // The same totals as on a store that displays prices without tax (checkout.test.ts).
    expect(quote.totals).toEqual({ subtotal: 7900, itemsDiscount: 790, discount: 0, shipping: 1500, tax: 445, total: 9055 });
  });
});

describe('a store that enters and displays prices including tax (woocommerce_prices_include_tax = yes)', () => {
  it('quotes the gross prices the buyer sees and the tax they contain as includedTax, never added; the order says the same', async () => {
    subject = await wooSubject({ simulator: { pricesIncludeTax: true, taxDisplayCart: 'incl' } });
    const { req, quote } = await quoteWithExpress(subject);
    // Gross 7000 + 900, 10% off (700 + 90); the tax is inside: 6300 -> 371, 810 -> 48 (6.25/106.25);
    // Illinois does not tax shipping, so nothing is added.
    expect(quote.lines.map((l) => [l.lineId, l.unitPrice, l.subtotal])).toEqual([
      ['li_1', 3500, 7000],
      ['li_2', 900, 900],
    ]);
    expect(quote.totals).toEqual({
      subtotal: 7900,
      itemsDiscount: 790,
      discount: 0,
      shipping: 1500,
      tax: 0,
      includedTax: 419,
      total: 8610,
    });
    expect(quote.taxLines).toEqual([{ title: 'Illinois sales tax', amount: 419, included: true }]);
    expect(quote.discounts.applied.map((d) => [d.code, d.amount, d.allocations.map((a) => a.amount)])).toEqual([['10off', 790, [700, 90]]]);

    const placed = await subject.adapter.placeOrder({
      reference: 'chk_tax_incl',
      quote: req,
      expectedTotal: quote.totals.total,
      buyer: BUYER,
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'txn_incl', amount: quote.totals.total } },
    });
    expect(placed).toMatchObject({ status: 'placed' });
    const orderId = (placed as { orderId: string }).orderId;
    expect(subject.sim.store.orders.get(Number(orderId))).toMatchObject({ status: 'processing', total: quote.totals.total });
    const order = (await subject.adapter.getOrder(orderId))!;
    expect(order.totals).toEqual(quote.totals);
    expect(order.taxLines).toEqual(quote.taxLines);
    expect(order.lines.map((l) => [l.checkoutLineId, l.unitPrice, l.subtotal, l.discount])).toEqual([
      ['li_1', 3500, 7000, 700],
      ['li_2', 900, 900, 90],
    ]);
  });

  it('adds the tax on shipping, which WooCommerce never takes as included: New York taxes it on top of the net rate', async () => {
    subject = await wooSubject({ simulator: { pricesIncludeTax: true, taxDisplayCart: 'incl' } });
    const newYork = { ...ADDRESS, locality: 'New York', region: 'NY', postalCode: '10001' };
    const s = subject;
    const withNy = (selected?: string, handle?: string): QuoteRequest => {
      const base = request(s.sim, selected, handle);
      const method = base.fulfillment!.methods[0]!;
      return { ...base, fulfillment: { ...base.fulfillment!, methods: [{ ...method, destination: { address: newYork } }] } };
    };
    const first = await s.adapter.quote(withNy());
    const express = first.fulfillment![0]!.groups[0]!.options[1]!;
    const quote = await s.adapter.quote(withNy(express.id, first.handle));
    // Inside the prices: 6300 -> 514, 810 -> 66 (8.875/108.875); on the 1500 shipping: 133 added.
    expect(quote.totals).toEqual({
      subtotal: 7900,
      itemsDiscount: 790,
      discount: 0,
      shipping: 1500,
      tax: 133,
      includedTax: 580,
      total: 7110 + 1500 + 133,
    });
    expect(quote.taxLines).toEqual([
      { title: 'New York sales tax', amount: 580, included: true },
      { title: 'New York sales tax', amount: 133 },
    ]);
  });
});

describe('the order the store records', () => {
  it('totals what the agent was quoted, or is not paid: a price changed since the quote is refused, nothing recorded as paid', async () => {
    subject = await wooSubject();
    const { req, quote } = await quoteWithExpress(subject);
    // The merchant edits the price in wp-admin right after the quote (placement reuses a fresh quote).
    subject.sim.store.purchasable(subject.sim.controls.idOf('bouquet_roses'))!.item.price = 3600;
    const result = await subject.adapter.placeOrder({
      reference: 'chk_moved',
      quote: req,
      expectedTotal: quote.totals.total,
      buyer: BUYER,
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'txn_moved', amount: quote.totals.total } },
    });
    expect(result).toMatchObject({ status: 'rejected', reason: 'price_changed', detail: expect.stringMatching(/total/) });
    const orders = [...subject.sim.store.orders.values()];
    expect(orders.filter((o) => o.status === 'processing' || o.datePaid)).toEqual([]);
    expect(orders.map((o) => o.status)).toEqual(['cancelled']);
  });
});
