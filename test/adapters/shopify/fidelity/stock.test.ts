/**
 * Fidelity: stock on Shopify's cart and draft orders.
 * - Adding merchandise that is sold out, unpublished or unknown is refused with the user error
 *   MERCHANDISE_NOT_APPLICABLE (changelog "Cart mutations now return error for invalid merchandise
 *   configuration", Storefront 2025-10).
 * - A line that sells out once in the cart stays there, `availableForSale: false`, and mutations
 *   answer a MERCHANDISE_OUT_OF_STOCK warning targeting it (changelog "Cart Warnings in Storefront
 *   API Cart", 2024-10).
 * - Completing a draft order does not check stock (assumption, docs/adapters/shopify.md): the
 *   gateway must, before it completes a paid draft order.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shopifySetup, type ShopifySetup } from '../helpers.js';
import { placePaid, readyQuote } from './checkout.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup();
});
afterEach(() => s.sim.shop.setStock('bouquet_sunflowers', 500));
afterAll(() => s.close());

const variant = (id: string) => s.sim.shop.ids.gid('ProductVariant', id);

describe('Shopify fidelity: stock', () => {
  it('a sold-out item is out_of_stock, an unknown one not_found; the others are priced', async () => {
    const quote = await s.adapter.quote({
      lines: [
        { lineId: 'l1', variantId: variant('gardenias'), quantity: 1 },
        { lineId: 'l2', variantId: 'gid://shopify/ProductVariant/1', quantity: 1 },
        { lineId: 'l3', variantId: variant('bouquet_roses'), quantity: 1 },
      ],
      discountCodes: [],
    });
    expect(quote.lineProblems).toEqual([
      { lineId: 'l1', code: 'out_of_stock' },
      { lineId: 'l2', code: 'not_found' },
    ]);
    expect(quote.lines.map((l) => l.lineId)).toEqual(['l3']);
  });

  it('a line that sells out in the cart is out_of_stock, and no paid draft order is completed for it', async () => {
    const { request, quote } = await readyQuote(s, [{ lineId: 'l1', variantId: variant('bouquet_sunflowers'), quantity: 1 }]);
    expect(quote.lineProblems).toEqual([]);
    s.sim.shop.setStock('bouquet_sunflowers', 0);
    const again = await s.adapter.quote(request);
    expect(again.lineProblems).toEqual([{ lineId: 'l1', code: 'out_of_stock' }]);
    const orders = s.sim.orders.all().length;
    await expect(placePaid(s, request, quote)).resolves.toMatchObject({ status: 'rejected', reason: 'out_of_stock' });
    expect(s.sim.orders.all()).toHaveLength(orders);
  });
});
