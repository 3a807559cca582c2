/**
 * Fidelity: an order placed on Shopify's checkout is linked to its checkout by the cart it came
 * from (issue 45 item 2), not only by the reference it carries as a note attribute, which Admin
 * order search cannot filter on. Admin 2026-10: `Order.cartToken` "The token associated with the
 * cart that was used to create the order" (changelog "New cartToken field added to the Order
 * object", 2026-07: it matches the REST order's `cart_token`, which webhooks carry); the `orders`
 * query's field `cart_token`; a Storefront cart id is `gid://shopify/Cart/<token>?key=…`
 * (changelog "Storefront API Cart ID now includes key param", 2024).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toShopifyAddress } from '../../../../adapters/shopify/addresses.js';
import { shopifyClient } from '../../../simulators/shopify-client.js';
import { shopifySetup, type ShopifySetup } from '../helpers.js';
import { readyQuote } from './checkout.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup();
});
afterAll(() => s.close());

const CHICAGO = { streetAddress: '233 S Wacker Dr', locality: 'Chicago', region: 'IL', country: 'US', postalCode: '60606' };

/** `count` other orders paid on Shopify's checkout, each from a cart of its own. */
async function otherOrders(count: number): Promise<void> {
  const client = shopifyClient(s.sim);
  for (let i = 0; i < count; i++) {
    const cart = await client.cart({ lines: [{ merchandiseId: client.variant('pot_ceramic'), quantity: 1 }] });
    expect((await client.pay(cart.checkoutUrl)).status).toBe(200);
  }
}

describe('Shopify fidelity: orders linked by their cart', () => {
  it('declares the cart as a store reference: the checkout page names it, the order and its webhook report it', async () => {
    expect(s.adapter.capabilities.orderLinks).toEqual(['reference', 'store_reference']);
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const { request } = await readyQuote(s, [{ lineId: 'l1', variantId: roses, quantity: 1 }]);
    const reference = 'chk_linked_by_cart_1';
    const page = await s.adapter.checkoutUrl({ reference, handle: request.handle!, quote: request });
    const cart = s.sim.carts.all().find((c) => c.attributes.some((a) => a.value === reference))!;
    expect(page.storeReference).toBe(cart.token);
    const order = await s.sim.pay(page.url, { email: 'ann@example.com', shippingAddress: toShopifyAddress(CHICAGO) });
    const orderId = order.id.split('/').at(-1)!;
    const created = s.sim.webhooks.deliveries.findLast((d) => d.topic === 'orders/create')!;
    expect(s.adapter.verifyWebhook(created.headers, Buffer.from(created.body))).toMatchObject({
      kind: 'order',
      orderId,
      reference,
      storeReference: page.storeReference,
    });
    const snapshot = (await s.adapter.getOrder(orderId))!;
    expect(snapshot).toMatchObject({ id: orderId, reference, storeReference: page.storeReference });
    // Its lines carry the checkout's line ids (the cart line attribute Shopify copies onto the line item, item 4).
    expect(snapshot.lines.map((l) => l.checkoutLineId)).toEqual(['l1']);
  });

  it('finds a handed-off order by its cart however many orders the shop took since (the newest 100 are no limit)', async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const { request } = await readyQuote(s, [{ lineId: 'l1', variantId: roses, quantity: 1 }]);
    const reference = 'chk_linked_by_cart_2';
    const page = await s.adapter.checkoutUrl({ reference, handle: request.handle!, quote: request });
    const order = await s.sim.pay(page.url, { email: 'ann@example.com', shippingAddress: toShopifyAddress(CHICAGO) });
    await otherOrders(101);
    const found = { orderId: order.id.split('/').at(-1)! };
    expect(await s.adapter.findOrderByReference(reference, undefined, { storeReference: page.storeReference! })).toMatchObject(found);
    // The session's cart (its handle) links it as well, as the gateway passes it for a checkout it handed off.
    expect(await s.adapter.findOrderByReference(reference, undefined, { handle: request.handle! })).toMatchObject(found);
    // Another cart's token is not this checkout's order.
    expect(await s.adapter.findOrderByReference('chk_linked_by_cart_3', undefined, { storeReference: 'no-such-cart' })).toBeNull();
  }, 60_000);
});
