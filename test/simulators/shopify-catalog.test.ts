/**
 * Catalog reads and small cart calls as the simulator answers them: paging capped at 250,
 * `nodes` of at most 250 ids (null for what the storefront does not show), availability of a
 * variant, SKU lookup in the Admin API, and cart attributes replaced by `cartAttributesUpdate`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';
import { shopifyClient } from './shopify-client.js';

let sim: ShopifySimulator;
let client: ReturnType<typeof shopifyClient>;
beforeAll(async () => {
  sim = await startShopifySimulator();
  client = shopifyClient(sim);
});
afterAll(() => sim.close());

describe('Shopify simulator: catalog and cart calls', () => {
  it('pages products by cursor, and refuses a page larger than 250 as a GraphQL error', async () => {
    const page = async (after: string | null) =>
      (
        await client.storefront(
          `query($after: String) { products(first: 4, after: $after, query: "available_for_sale:true") {
            nodes { handle } pageInfo { hasNextPage endCursor } } }`,
          { after },
        )
      ).body.data.products;
    const first = await page(null);
    const second = await page(first.pageInfo.endCursor);
    expect(first.nodes).toHaveLength(4);
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(second.nodes.map((n: any) => n.handle)).not.toContain(first.nodes[0].handle);
    const tooMany = await client.storefront('{ products(first: 251) { nodes { id } } }');
    expect(tooMany.status).toBe(200);
    expect(tooMany.body.errors[0]).toMatchObject({ message: 'The maximum page size is 250', extensions: { code: 'BAD_REQUEST' } });
  });

  it('leaves out a products query term on a field it does not search: every product matches', async () => {
    const count = async (query: string) =>
      (await client.storefront(`query($q: String) { products(first: 50, query: $q) { nodes { id } } }`, { q: query })).body.data.products
        .nodes.length;
    expect(await count('collection_handle:spring')).toBe(await count(''));
    expect(await count("tag:'roses'")).toBeLessThan(await count(''));
  });

  it('answers nodes in order, null for an archived product or an unknown id, and at most 250 ids', async () => {
    const ids = [client.variant('bouquet_roses'), sim.shop.ids.gid('Product', 'wreath_holiday'), 'gid://shopify/ProductVariant/1'];
    const { body } = await client.storefront(
      `query($ids: [ID!]!) { nodes(ids: $ids) { ... on ProductVariant { sku availableForSale currentlyNotInStock } } }`,
      { ids },
    );
    expect(body.data.nodes).toEqual([{ sku: 'FLW-ROSE-12', availableForSale: true, currentlyNotInStock: false }, null, null]);
    const many = await client.storefront(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: Array(251).fill(ids[0]) });
    expect(many.body.errors[0].message).toMatch(/250/);
  });

  it('shows a backorderable variant available though not in stock, and a sold-out one unavailable', async () => {
    const { body } = await client.storefront(
      `query($ids: [ID!]!) { nodes(ids: $ids) { ... on ProductVariant { sku availableForSale currentlyNotInStock } } }`,
      { ids: [client.variant('vase_glass'), sim.shop.ids.gid('ProductVariant', 'florist_tee_l_white')] },
    );
    expect(body.data.nodes).toEqual([
      { sku: expect.any(String), availableForSale: true, currentlyNotInStock: true },
      { sku: expect.any(String), availableForSale: false, currentlyNotInStock: false },
    ]);
  });

  it('looks variants up by SKU in the Admin API, case-insensitively', async () => {
    const { body } = await client.admin(`{ productVariants(first: 5, query: "sku:flw-rose-12") { nodes { sku product { handle } } } }`);
    expect(body.data.productVariants.nodes).toEqual([{ sku: 'FLW-ROSE-12', product: { handle: 'red-rose-bouquet' } }]);
  });

  it('replaces the cart attributes with the list cartAttributesUpdate is given', async () => {
    const cart = await client.cart({ attributes: [{ key: 'gift', value: 'yes' }] });
    const { body } = await client.storefront(
      `mutation($id: ID!, $a: [AttributeInput!]!) {
        cartAttributesUpdate(cartId: $id, attributes: $a) { cart { attributes { key value } } userErrors { message } }
      }`,
      { id: cart.id, a: [{ key: '_proto_checkout', value: 'chk_9' }] },
    );
    expect(body.data.cartAttributesUpdate).toEqual({ cart: { attributes: [{ key: '_proto_checkout', value: 'chk_9' }] }, userErrors: [] });
  });
});
