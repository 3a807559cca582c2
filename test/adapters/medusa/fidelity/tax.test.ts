/**
 * Tax on the real Medusa server, both ways Medusa prices it. Tax-exclusive (the default region,
 * Ontario: 5 % GST added to prices) and tax-inclusive (the Germany region: prices include 19 %
 * VAT; seeded `is_tax_inclusive` price preferences). Medusa's line-item totals (@medusajs/utils
 * totals/line-item getLineItemTotals): an item's `subtotal` is unit_price × quantity, divided by
 * (1 + rate) when the price includes tax; its `total` adds the tax; its `tax_total` is the tax of
 * what is paid (after discounts); a promotion's adjustment is reported net (`subtotal`) and gross
 * (`total`, totals/adjustment calculateAdjustmentTotal). Tax-exclusive: subtotal, tax added, the
 * total paid. Tax-inclusive: the prices as the store sets them, the tax inside them as
 * `includedTax` (never added), the total paid; no discount that was never given.
 */
import { describe, expect, it } from 'vitest';
import type { Quote, QuoteRequest } from '../../../../adapters/contract.js';
import type { MedusaAdapter } from '../../../../adapters/medusa/index.js';
import { medusaStore, type RunningMedusa } from '../../../helpers/medusa-store.js';
import {
  adapterFor,
  BERLIN,
  BUYER,
  cents,
  lines,
  medusaCart,
  medusaOrder,
  readyQuote,
  reference,
  TORONTO,
  shippingRequest,
} from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

/** The quote's totals against the Medusa cart it was priced from; the tax takes the cent rounding leaves. */
async function expectMedusaTotals(running: RunningMedusa, quote: Quote): Promise<void> {
  const cart = await medusaCart(running, quote.handle!);
  expect(quote.totals).toEqual({
    subtotal: cents(cart.item_subtotal),
    itemsDiscount: cents(cart.discount_subtotal),
    discount: 0,
    shipping: cents(cart.shipping_subtotal),
    tax: cents(cart.total) - cents(cart.item_subtotal) + cents(cart.discount_subtotal) - cents(cart.shipping_subtotal),
    total: cents(cart.total),
  });
  expect(Math.abs(quote.totals.tax! - cents(cart.tax_total))).toBeLessThanOrEqual(1);
  expect(quote.lines.map((l) => l.subtotal)).toEqual(cart.items.map((i: { subtotal: number }) => cents(i.subtotal)));
}

/** Places the quote (gateway_charged) and reads the order back: its totals, and Medusa's. */
/** A tax-inclusive quote against its Medusa cart: the total Medusa charges, the tax inside it within the cent rounding leaves. */
async function expectInclusiveTotals(running: RunningMedusa, quote: Quote): Promise<void> {
  const cart = await medusaCart(running, quote.handle!);
  const { subtotal, itemsDiscount, discount, shipping, tax, total } = quote.totals;
  expect([total, subtotal - itemsDiscount - discount + shipping! + tax!]).toEqual([cents(cart.total), cents(cart.total)]);
  expect(Math.abs(quote.totals.includedTax! - cents(cart.tax_total))).toBeLessThanOrEqual(1);
}

async function placeAndRead(adapter: MedusaAdapter, request: QuoteRequest, quote: Quote) {
  const placed = await adapter.placeOrder({
    reference: reference('tax'),
    quote: request,
    expectedTotal: quote.totals.total,
    buyer: BUYER,
    payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_tax', amount: quote.totals.total } },
  });
  expect(placed).toMatchObject({ status: 'placed' });
  const orderId = (placed as { orderId: string }).orderId;
  return { snapshot: (await adapter.getOrder(orderId))!, medusa: await medusaOrder(store!, orderId, 'id,total,tax_total') };
}

suite('tax as Medusa computes it (real Medusa server)', () => {
  it('tax-inclusive prices: shown as the store prices them, the VAT inside them as included tax, nothing added to the total', async () => {
    const adapter = await adapterFor(store!, { region_id: store!.seed.taxInclusiveRegionId });
    try {
      expect(adapter.capabilities.currencies).toEqual(['EUR']);
      // The catalog shows the price as the store sets it, tax inside, as the line's unit price.
      const [found] = await adapter.lookup([store!.seed.variants.bouquet_roses!]);
      expect(found!.product.variants[0]!.price).toEqual({ amount: 3500, currency: 'EUR' });
      const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: lines(store!, { bouquet_roses: 2 }) }, BERLIN));
      // 2 × 35.00 and 5.00 shipping, each with 19 % VAT inside: 75.00 × 19 / 119 = 11.97 VAT of the 75.00 paid, none added.
      expect(quote.totals).toEqual({
        subtotal: 7000,
        itemsDiscount: 0,
        discount: 0,
        shipping: 500,
        tax: 0,
        includedTax: 1197,
        total: 7500,
      });
      expect(quote.taxLines).toEqual([{ title: 'VAT', amount: 1197, included: true }]);
      expect(quote.lines.map((l) => [l.unitPrice, l.subtotal])).toEqual([[3500, 7000]]);
      expect(quote.discounts.applied).toEqual([]);
      await expectInclusiveTotals(store!, quote);

      const { snapshot, medusa } = await placeAndRead(adapter, request, quote);
      expect(snapshot.totals).toEqual(quote.totals);
      expect(snapshot.taxLines).toEqual(quote.taxLines);
      expect(snapshot.lines.map((l) => [l.unitPrice, l.subtotal, l.discount])).toEqual([[3500, 7000, 0]]);
      expect([cents(medusa.total), cents(medusa.tax_total)]).toEqual([7500, 1197]);
    } finally {
      await adapter.close();
    }
  });

  it("tax-inclusive prices with a code: the discount as priced (with its VAT), the VAT paid included, Medusa's total", async () => {
    const adapter = await adapterFor(store!, { region_id: store!.seed.taxInclusiveRegionId });
    try {
      const request = shippingRequest({ lines: lines(store!, { bouquet_roses: 3 }), discountCodes: ['10OFF'] }, BERLIN);
      const { request: ready, quote } = await readyQuote(adapter, request);
      await expectInclusiveTotals(store!, quote);
      const [applied] = quote.discounts.applied;
      expect(applied).toMatchObject({ code: '10OFF', amount: quote.totals.itemsDiscount });
      // 3 × 35.00 less 10 % = 94.50, and 5.00 shipping: 99.50 paid, its VAT 99.50 × 19 / 119 = 15.89 inside.
      expect(quote.totals).toEqual({
        subtotal: 10500,
        itemsDiscount: 1050,
        discount: 0,
        shipping: 500,
        tax: 0,
        includedTax: 1589,
        total: 9950,
      });
      const { snapshot, medusa } = await placeAndRead(adapter, ready, quote);
      expect(snapshot.totals).toEqual(quote.totals);
      expect(cents(medusa.total)).toBe(quote.totals.total);
    } finally {
      await adapter.close();
    }
  });

  it("tax-exclusive prices: Medusa's GST is added on top of the items and the shipping, and the order says the same", async () => {
    const adapter = await adapterFor(store!);
    try {
      const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: lines(store!, { bouquet_roses: 2 }) }, TORONTO));
      // 70.00 + 5.00 shipping, 5 % GST on both.
      expect(quote.totals).toEqual({ subtotal: 7000, itemsDiscount: 0, discount: 0, shipping: 500, tax: 375, total: 7875 });
      await expectMedusaTotals(store!, quote);
      const { snapshot, medusa } = await placeAndRead(adapter, request, quote);
      expect(snapshot.totals).toEqual(quote.totals);
      expect([cents(medusa.total), cents(medusa.tax_total)]).toEqual([7875, 375]);
    } finally {
      await adapter.close();
    }
  });
});
