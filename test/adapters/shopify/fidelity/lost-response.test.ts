/**
 * Fidelity: a lost response. Shopify may commit a mutation whose answer never arrives (timeout,
 * network cut); the gateway then retries the quote from the handle it had. `cartLinesAdd` merges
 * merchandise with the same attributes into the existing line (Storefront 2026-10 schema,
 * `cartLinesAdd`: "Adds a merchandise line to the cart"; the cart guide's lines are unique per
 * merchandise and attributes), so a blind retry doubles the line; `cartLinesUpdate` sets absolute
 * quantities. The simulator's `lost` fault commits the call, then drops the connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../../../adapters/contract.js';
import { LINE_ATTRIBUTE } from '../../../../adapters/shopify/ids.js';
import { shopifySetup, type ShopifySetup } from '../helpers.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup();
});
afterAll(() => s.close());

const variant = (id: string) => s.sim.shop.ids.gid('ProductVariant', id);
/** Quantity per gateway line in the Shopify cart behind a handle. */
function cartQuantities(handle: string) {
  const cart = s.sim.carts.find((JSON.parse(handle) as { cart: string }).cart)!;
  return Object.fromEntries(cart.lines.map((l) => [l.attributes.find((a) => a.key === LINE_ATTRIBUTE)!.value, l.quantity]));
}

describe('Shopify fidelity: lost responses', () => {
  it('a quote retried after Shopify committed cartLinesAdd leaves the cart at the quoted quantities', async () => {
    const one: QuoteRequest = { lines: [{ lineId: 'l1', variantId: variant('bouquet_roses'), quantity: 1 }], discountCodes: [] };
    const first = await s.adapter.quote(one);
    const two: QuoteRequest = {
      ...one,
      handle: first.handle!,
      lines: [...one.lines, { lineId: 'l2', variantId: variant('bouquet_sunflowers'), quantity: 2 }],
    };
    s.sim.faults.inject({ type: 'lost' }, { target: 'storefront' });
    await expect(s.adapter.quote(two)).rejects.toThrow();
    // Shopify has the line already; the gateway retries from the handle it kept.
    const retried = await s.adapter.quote(two);
    expect(cartQuantities(retried.handle!)).toEqual({ l1: 1, l2: 2 });
    expect(retried.lines.map((l) => [l.lineId, l.quantity])).toEqual([
      ['l1', 1],
      ['l2', 2],
    ]);
    const cart = s.sim.carts.find((JSON.parse(retried.handle!) as { cart: string }).cart)!;
    expect(retried.totals.subtotal).toBe(s.sim.carts.price(cart).quote.totals.subtotal);
    // And the next unchanged quote reads the cart without changing it.
    const again = await s.adapter.quote({ ...two, handle: retried.handle! });
    expect(cartQuantities(again.handle!)).toEqual({ l1: 1, l2: 2 });
  });
});
