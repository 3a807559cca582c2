/**
 * Fidelity: placing a gateway_charged order once. `draftOrderComplete` is not idempotent (Admin
 * 2026-10): after a lost answer the gateway places again with the same reference, and must find
 * what the first attempt made. The order carries the draft's tags, but a merchant (or an app) may
 * retag it, and Shopify's order search then misses it; the draft it was completed from keeps its
 * tag, its status COMPLETED and `DraftOrder.order`: "The order that was created from the draft
 * order".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopifySetup, type ShopifySetup } from '../helpers.js';
import { placePaid, readyQuote } from './checkout.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup();
});
afterAll(() => s.close());

const variant = (id: string) => s.sim.shop.ids.gid('ProductVariant', id);

/** Orders of other buyers placed since, as on a busy shop (an e-book: nothing to ship). */
async function busyShop(orders: number) {
  for (let i = 0; i < orders; i++) {
    const { draft } = s.sim.drafts.create({ lineItems: [{ variantId: variant('ebook_flower_care'), quantity: 1 }] });
    await s.sim.drafts.complete(draft!.id);
  }
}

describe('Shopify fidelity: draft orders', () => {
  it('a placement retried after a lost answer takes the order its completed draft made, even when the order search misses it', async () => {
    const { request, quote } = await readyQuote(s, [{ lineId: 'l1', variantId: variant('bouquet_roses'), quantity: 1 }]);
    const reference = 'chk_RetriedAfterALostAnswer1';
    const placed = await placePaid(s, request, quote, reference);
    expect(placed).toMatchObject({ status: 'placed' });
    const orderId = (placed as { orderId: string }).orderId;
    // The merchant retags the order; a hundred orders come in before the retry.
    s.sim.orders.get(`gid://shopify/Order/${orderId}`)!.tags = ['vip'];
    await busyShop(100);
    const orders = s.sim.orders.all().length;

    await expect(placePaid(s, request, quote, reference)).resolves.toEqual(placed);
    expect(s.sim.orders.all()).toHaveLength(orders);
    expect(s.sim.drafts.all().filter((d) => d.input.tags?.some((t) => t.endsWith(reference)))).toHaveLength(1);
    await expect(s.adapter.findOrderByReference(reference)).resolves.toMatchObject({ orderId });
  });
});

describe('Shopify fidelity: an order placed on the checkout after a handoff', () => {
  it('is found by its reference, which it carries only as a note attribute (not a search field)', async () => {
    const request = { lines: [{ lineId: 'l1', variantId: variant('bouquet_roses'), quantity: 1 }], discountCodes: [] };
    const quote = await s.adapter.quote(request);
    const { url } = await s.adapter.checkoutUrl({ reference: 'chk_HandedOffToShopify', handle: quote.handle!, quote: request });
    const order = await s.sim.pay(url);
    s.sim.resetCalls();
    await expect(s.adapter.findOrderByReference('chk_HandedOffToShopify')).resolves.toEqual({
      orderId: order.id.split('/').at(-1),
      permalinkUrl: expect.stringMatching(/\/orders\//),
    });
    expect(s.sim.calls.map((c) => c.operationName)).toEqual(['OrderByReference', 'RecentOrders']);
  });
});
