/**
 * Fidelity: a shop whose prices include tax (Settings > Taxes and duties; Admin 2026-10
 * `Shop.taxesIncluded`, `CalculatedDraftOrder.taxesIncluded`: "Whether the line item prices
 * include taxes"). Shopify's total is then the sum of the prices: the tax is part of them, never
 * added on top; `CalculatedDraftOrder.taxLines` and `Order.taxLines` / `totalTaxSet` still name it
 * ("The list of of taxes lines charged for each line item and shipping line"), and the quote and
 * the order show it as included tax (issue 45 item 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopifySetup, type ShopifySetup } from '../helpers.js';
import { placePaid, readyQuote } from './checkout.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup({ simulator: { taxesIncluded: true } });
});
afterAll(() => s.close());

describe('Shopify fidelity: prices that include tax', () => {
  it('quotes the total Shopify charges (no tax added) and places the order at exactly that total', async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const { request, quote } = await readyQuote(s, [{ lineId: 'l1', variantId: roses, quantity: 2 }]);
    const { subtotal, itemsDiscount, discount, shipping } = quote.totals;
    // 2 x 35.00 with standard shipping, Illinois tax already inside those prices.
    expect(quote.totals.total).toBe(subtotal - itemsDiscount - discount + shipping!);
    expect(quote.totals.tax).toBe(0);
    // The tax inside those prices, as Shopify's draftOrderCalculate names it: shown, not added.
    expect(quote.totals.includedTax).toBeGreaterThan(0);
    expect(quote.taxLines.length).toBeGreaterThan(0);
    expect(quote.taxLines.every((t) => t.included)).toBe(true);
    expect(quote.taxLines.reduce((sum, t) => sum + t.amount, 0)).toBe(quote.totals.includedTax);
    const placed = await placePaid(s, request, quote);
    expect(placed).toMatchObject({ status: 'placed' });
    const order = s.sim.orders.all().at(-1)!;
    expect(order.totals.total).toBe(quote.totals.total);
    // Shopify still reports the tax inside the prices on its order.
    expect(order.totals.tax).toBeGreaterThan(0);
    // The order read back says the same as the quote: no tax added, the included tax shown.
    const snapshot = (await s.adapter.getOrder((placed as { orderId: string }).orderId))!;
    expect(snapshot.totals).toMatchObject({ tax: 0, includedTax: quote.totals.includedTax, total: quote.totals.total });
    expect(snapshot.taxLines).toEqual(quote.taxLines);
  });

  it('a shop that adds tax shows no included tax', async () => {
    const t = await shopifySetup();
    try {
      const roses = t.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
      const { request, quote } = await readyQuote(t, [{ lineId: 'l1', variantId: roses, quantity: 2 }]);
      expect(quote.totals.tax).toBeGreaterThan(0);
      expect(quote.totals.includedTax).toBeUndefined();
      expect(quote.taxLines.some((l) => l.included)).toBe(false);
      const placed = await placePaid(t, request, quote);
      const snapshot = (await t.adapter.getOrder((placed as { orderId: string }).orderId))!;
      expect(snapshot.totals.tax).toBe(quote.totals.tax);
      expect(snapshot.totals.includedTax).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
