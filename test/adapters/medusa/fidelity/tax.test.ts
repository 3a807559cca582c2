/**
 * Tax on the real Medusa server, both ways Medusa prices it. Tax-exclusive (the default region,
 * Ontario: 5 % GST added to prices) and tax-inclusive (the Germany region: prices include 19 %
 * VAT). Medusa's line-item totals (@medusajs/utils totals/line-item getLineItemTotals): an item's
 * `subtotal` is unit_price × quantity, divided by (1 + rate) when the price includes tax; its
 * `total` adds the tax; a promotion's adjustment is reported net (`subtotal`) and gross (`total`).
 * The quote and the order say what Medusa says: subtotal without tax, tax, the total paid, no
 * discount that was never given.
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
  it('tax-inclusive prices: the subtotal is without the tax inside them, no discount appears, the total is the price paid', async () => {
    const adapter = await adapterFor(store!, { region_id: store!.seed.taxInclusiveRegionId });
    try {
      expect(adapter.capabilities.currencies).toEqual(['EUR']);
      // The catalog shows the price as the store sets it, tax inside, as the line's unit price.
      const [found] = await adapter.lookup([store!.seed.variants.bouquet_roses!]);
      expect(found!.product.variants[0]!.price).toEqual({ amount: 3500, currency: 'EUR' });
      const { request, quote } = await readyQuote(adapter, shippingRequest({ lines: lines(store!, { bouquet_roses: 2 }) }, BERLIN));
      // 2 × 35.00 and 5.00 shipping, each with 19 % VAT inside: 58.82 + 4.20 net, 11.98 VAT, 75.00 paid.
      expect(quote.totals).toEqual({ subtotal: 5882, itemsDiscount: 0, discount: 0, shipping: 420, tax: 1198, total: 7500 });
      expect(quote.discounts.applied).toEqual([]);
      await expectMedusaTotals(store!, quote);

      const { snapshot, medusa } = await placeAndRead(adapter, request, quote);
      expect(snapshot.totals).toEqual(quote.totals);
      expect(snapshot.lines.map((l) => [l.unitPrice, l.subtotal, l.discount])).toEqual([[3500, 5882, 0]]);
      expect(cents(medusa.total)).toBe(quote.totals.total);
    } finally {
      await adapter.close();
    }
  });

  it("tax-inclusive prices with a code: Medusa's discount before tax, and the totals add up to what Medusa charges", async () => {
    const adapter = await adapterFor(store!, { region_id: store!.seed.taxInclusiveRegionId });
    try {
      const request = shippingRequest({ lines: lines(store!, { bouquet_roses: 3 }), discountCodes: ['10OFF'] }, BERLIN);
      const { request: ready, quote } = await readyQuote(adapter, request);
      await expectMedusaTotals(store!, quote);
      const [applied] = quote.discounts.applied;
      expect(applied).toMatchObject({ code: '10OFF', amount: quote.totals.itemsDiscount });
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
