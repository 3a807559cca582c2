/**
 * Fidelity: the Storefront cart behind a session. `cart(id:)` (Storefront 2026-10) is null for a
 * cart Shopify no longer has, a cart paid on its checkout among them; `cartAttributesUpdate` makes
 * the list given the cart's attributes, and Shopify copies them onto the order as note attributes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_ATTRIBUTE } from '../../../../adapters/shopify/ids.js';
import { shopifySetup, type ShopifySetup } from '../helpers.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup();
});
afterAll(() => s.close());

const cartOf = (handle: string) => (JSON.parse(handle) as { cart: string }).cart;

describe('Shopify fidelity: the session cart', () => {
  it('a cart paid on Shopify is gone: the next quote of that session prices a new cart', async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const request = { lines: [{ lineId: 'l1', variantId: roses, quantity: 1 }], discountCodes: [] };
    const first = await s.adapter.quote(request);
    await s.sim.pay(s.sim.checkoutUrl(s.sim.carts.find(cartOf(first.handle!))!));
    const next = await s.adapter.quote({ ...request, handle: first.handle! });
    expect(cartOf(next.handle!)).not.toBe(cartOf(first.handle!));
    expect(next.lines.map((l) => [l.lineId, l.quantity])).toEqual([['l1', 1]]);
  });

  it("the checkout page's cart carries the reference, and the order placed there names it", async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const request = { lines: [{ lineId: 'l1', variantId: roses, quantity: 1 }], discountCodes: [] };
    const quote = await s.adapter.quote(request);
    await s.adapter.checkoutUrl({ reference: 'chk_first', handle: quote.handle!, quote: request });
    // The same cart handed off for another session: the attribute is replaced, not added.
    const { url } = await s.adapter.checkoutUrl({ reference: 'chk_second', handle: quote.handle!, quote: request });
    expect(s.sim.carts.find(cartOf(quote.handle!))!.attributes).toEqual([{ key: REFERENCE_ATTRIBUTE, value: 'chk_second' }]);
    const order = await s.sim.pay(url);
    const snapshot = await s.adapter.getOrder(order.id.split('/').at(-1)!);
    expect(snapshot).toMatchObject({ reference: 'chk_second' });
  });
});
