/**
 * Fidelity: a shop whose prices include tax (Settings > Taxes and duties; Admin 2026-10
 * `Shop.taxesIncluded`, `CalculatedDraftOrder.taxesIncluded`: "Whether the line item prices
 * include taxes"). Shopify's total is then the sum of the prices: the tax is part of them, never
 * added on top.
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
    const placed = await placePaid(s, request, quote);
    expect(placed).toMatchObject({ status: 'placed' });
    const order = s.sim.orders.all().at(-1)!;
    expect(order.totals.total).toBe(quote.totals.total);
    // Shopify still reports the tax inside the prices on its order.
    expect(order.totals.tax).toBeGreaterThan(0);
  });
});
