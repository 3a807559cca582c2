/**
 * The Admin `orders(query:)` search syntax as the simulator answers it (simulators/shopify/search-syntax.ts):
 * tags, connectives, times in the shop's zone, and a field the query does not search, which
 * Shopify ignores (every order matches) with a warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { CHICAGO, shopifyClient } from './shopify-client.js';

const ORDERS = `query($q: String) { orders(first: 50, query: $q) { nodes { id tags displayFinancialStatus } } }`;

let sim: ShopifySimulator;
let client: ReturnType<typeof shopifyClient>;
// 04:30 UTC on 10 March 2026 is still the 9th in Chicago (CDT, UTC-5).
let now = Date.parse('2026-03-10T04:30:00Z');
beforeAll(async () => {
  sim = await startShopifySimulator({ now: () => now });
  client = shopifyClient(sim);
});
afterAll(() => sim.close());

const place = async (tag: string, pending = false) => {
  const created = await client.admin(`mutation($input: DraftOrderInput!) { draftOrderCreate(input: $input) { draftOrder { id } } }`, {
    input: {
      lineItems: [{ variantId: client.variant('pot_ceramic'), quantity: 1 }],
      shippingAddress: CHICAGO,
      shippingLine: { title: 'Standard Shipping' },
      tags: [tag],
      customAttributes: [{ key: '_proto_checkout', value: tag }],
    },
  });
  const done = await client.admin(
    `mutation($id: ID!, $p: Boolean) { draftOrderComplete(id: $id, paymentPending: $p) { draftOrder { order { id } } } }`,
    { id: created.body.data.draftOrderCreate.draftOrder.id, p: pending },
  );
  return done.body.data.draftOrderComplete.draftOrder.order.id as string;
};

describe('Shopify simulator: orders search', () => {
  it('finds orders by tag, with AND, OR and NOT, and by financial status', async () => {
    const a = await place('proto:chk_1');
    const b = await place('proto:chk_2', true);
    const ids = async (q: string) => (await client.admin(ORDERS, { q })).body.data.orders.nodes.map((o: any) => o.id);
    expect(await ids("tag:'proto:chk_1'")).toEqual([a]);
    expect(await ids('tag:proto:chk_2')).toEqual([b]);
    expect(await ids("tag:'proto:chk_1' OR tag:'proto:chk_2'")).toEqual([a, b]);
    expect(await ids("-tag:'proto:chk_1'")).toEqual([b]);
    expect(await ids('financial_status:pending')).toEqual([b]);
    expect(await ids('tag:PROTO:CHK_1')).toEqual([a]); // tags match whatever the case
  });

  it('ignores a field the orders query does not search (a note attribute): every order matches, with a warning', async () => {
    const all = (await client.admin(ORDERS, { q: '' })).body.data.orders.nodes.length;
    const answer = await client.admin(ORDERS, { q: "note_attributes:'_proto_checkout:proto:chk_1'" });
    expect(answer.body.data.orders.nodes).toHaveLength(all);
    expect(answer.body.extensions.search).toEqual([
      {
        path: ['orders'],
        query: "note_attributes:'_proto_checkout:proto:chk_1'",
        warnings: [{ field: 'note_attributes', message: 'Invalid search field for this query.' }],
      },
    ]);
  });

  it("finds an order placed on Shopify's checkout by its cart's token (cart_token), which the order and its webhook carry", async () => {
    // Admin 2026-10: `Order.cartToken` "The token associated with the cart that was used to create the
    // order" (changelog "New cartToken field added to the Order object", 2026-07, "matching the existing
    // cart_token field in the REST Admin API"); `orders(query:)` field `cart_token`; the cart id is
    // `gid://shopify/Cart/<token>?key=…` (changelog "Storefront API Cart ID now includes key param").
    const cart = await client.cart({ lines: [{ merchandiseId: client.variant('pot_ceramic'), quantity: 1 }] });
    const token = cart.id.replace('gid://shopify/Cart/', '').replace(/\?.*$/, '');
    const paid = await client.pay(cart.checkoutUrl);
    expect(paid.status).toBe(200);
    const answer = await client.admin(`query($q: String) { orders(first: 5, query: $q) { nodes { id cartToken } } }`, {
      q: `cart_token:${JSON.stringify(token)}`,
    });
    expect(answer.body.data.orders.nodes).toEqual([{ id: paid.order!.id, cartToken: token }]);
    expect(answer.body.extensions?.search).toBeUndefined();
    const created = sim.webhooks.deliveries.map((d) => JSON.parse(d.body)).find((b) => b.admin_graphql_api_id === paid.order!.id);
    expect(created.cart_token).toBe(token);
    // An order made from a draft order came from no cart.
    const drafted = await place('proto:no-cart');
    const read = await client.admin('query($id: ID!) { order(id: $id) { cartToken } }', { id: drafted });
    expect(read.body.data.order.cartToken).toBeNull();
  });

  it('reads a time with an offset exactly and a bare date as a day in the shop time zone', async () => {
    const at = now;
    const placed = await place('proto:time');
    const ids = async (q: string) =>
      (await client.admin(ORDERS, { q: `tag:'proto:time' AND ${q}` })).body.data.orders.nodes.map((o: any) => o.id);
    expect(await ids(`updated_at:>='${new Date(at).toISOString()}'`)).toEqual([placed]);
    expect(await ids(`updated_at:>'${new Date(at).toISOString()}'`)).toEqual([]);
    // The order is of 10 March in UTC, of 9 March in Chicago.
    expect(await ids("created_at:'2026-03-09'")).toEqual([placed]);
    expect(await ids("created_at:'2026-03-10'")).toEqual([]);
    expect(await ids("created_at:<'2026-03-09T23:00:00'")).toEqual([]);
    expect(await ids("created_at:<'2026-03-09T23:45:00'")).toEqual([placed]);
    now += 60_000;
    expect(await ids('created_at:<now')).toEqual([placed]);
    // Webhook bodies (the REST representation) give the shop's wall time with its offset, the GraphQL API UTC.
    const created = sim.webhooks.deliveries.map((d) => JSON.parse(d.body)).find((b) => b.admin_graphql_api_id === placed);
    expect(created.created_at).toBe('2026-03-09T23:30:00-05:00');
    const read = await client.admin('query($id: ID!) { order(id: $id) { createdAt } }', { id: placed });
    expect(read.body.data.order.createdAt).toBe('2026-03-10T04:30:00Z');
  });
});
