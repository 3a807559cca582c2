/**
 * Local pickup on Shopify (simulators/shopify/catalog.ts, checkout.ts): the locations that offer
 * it, a variant's availability at each, and a checkout the cart's delivery preference opens on
 * pickup at a location, taxed at that location, which the buyer may still change to shipping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { shopifyClient } from './shopify-client.js';

const ORDER = `query($id: ID!) { order(id: $id) {
  shippingAddress { city } shippingLine { title originalPriceSet { shopMoney { amount } } }
  totalTaxSet { shopMoney { amount } } totalPriceSet { shopMoney { amount } } taxLines { title } } }`;

let sim: ShopifySimulator;
let client: ReturnType<typeof shopifyClient>;
beforeAll(async () => {
  sim = await startShopifySimulator();
  client = shopifyClient(sim);
});
afterAll(() => sim.close());

const loop = () => sim.shop.ids.gid('Location', 'loop');
const pickupCart = () =>
  client.cart({
    lines: [{ merchandiseId: client.variant('bouquet_roses'), quantity: 2 }],
    buyerIdentity: { countryCode: 'US', preferences: { delivery: { deliveryMethod: ['PICK_UP'], pickupHandle: [loop()] } } },
  });

describe('Shopify simulator: local pickup', () => {
  it('lists the pickup locations and where a variant can be collected', async () => {
    const { body } = await client.storefront(
      `query($id: ID!) {
        locations(first: 10) { nodes { id name address { city provinceCode } } }
        node(id: $id) { ... on ProductVariant {
          storeAvailability(first: 10) { nodes { available quantityAvailable pickUpTime location { name } } } } }
      }`,
      { id: client.variant('bouquet_tulips') },
    );
    expect(body.data.locations.nodes.map((l: any) => [l.name, l.address.city])).toEqual([
      ['Petal & Stem Loop Studio', 'Chicago'],
      ['Petal & Stem Evanston Shop', 'Evanston'],
    ]);
    expect(body.data.node.storeAvailability.nodes).toEqual([
      { available: true, quantityAvailable: 12, pickUpTime: 'Usually ready in 2 hours', location: { name: 'Petal & Stem Loop Studio' } },
      { available: false, quantityAvailable: 0, pickUpTime: 'Usually ready in 4 hours', location: { name: 'Petal & Stem Evanston Shop' } },
    ]);
  });

  it('completes a cart that prefers pickup as a pickup order: no shipping address, free, taxed at the location', async () => {
    const cart = await pickupCart();
    const paid = await client.pay(cart.checkoutUrl);
    const order = (await client.admin(ORDER, { id: paid.order!.id })).body.data.order;
    // Illinois 6.25 % of 70.00 = 4.38 (the Loop Studio is in Chicago).
    expect(order).toEqual({
      shippingAddress: null,
      shippingLine: { title: 'Pick up at Petal & Stem Loop Studio', originalPriceSet: { shopMoney: { amount: '0.0' } } },
      totalTaxSet: { shopMoney: { amount: '4.38' } },
      totalPriceSet: { shopMoney: { amount: '74.38' } },
      taxLines: [{ title: 'Illinois sales tax' }],
    });
  });

  it('lets the buyer overwrite the preference at checkout and have it shipped instead', async () => {
    const cart = await pickupCart();
    const paid = await client.pay(cart.checkoutUrl, { delivery: 'shipping' });
    const order = (await client.admin(ORDER, { id: paid.order!.id })).body.data.order;
    expect(order.shippingAddress).toEqual({ city: 'Chicago' });
    expect(order.shippingLine.title).toBe('Standard Shipping');
  });
});
