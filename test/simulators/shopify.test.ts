import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopifySimulator, type ShopifySimulator } from '../../simulators/shopify/server.js';

let sim: ShopifySimulator;
beforeAll(async () => {
  sim = await startShopifySimulator();
});
afterAll(() => sim.close());

async function gql(
  api: 'storefront' | 'admin',
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const path = api === 'storefront' ? '/api/2026-10/graphql.json' : '/admin/api/2026-10/graphql.json';
  const auth: Record<string, string> =
    api === 'storefront'
      ? { 'Shopify-Storefront-Private-Token': sim.credentials.storefrontToken }
      : { 'X-Shopify-Access-Token': sim.credentials.adminToken };
  const res = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: any; extensions?: any } };
}

const CART_FIELDS = `id checkoutUrl attributes { key value }
  discountCodes { code applicable }
  cost { subtotalAmount { amount currencyCode } totalAmount { amount currencyCode } }
  lines(first: 10) { nodes { id quantity cost { totalAmount { amount } } merchandise { ... on ProductVariant { id sku } } } }
  deliveryGroups(first: 5) { nodes { id deliveryOptions { handle title estimatedCost { amount } } selectedDeliveryOption { handle } } }`;

describe('Shopify simulator', () => {
  it('refuses a document that does not validate against the real schema, as Shopify does', async () => {
    const { status, body } = await gql('storefront', '{ shop { name notAField } }');
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toMatch(/notAField/);
    const admin = await gql('admin', 'mutation { cartCreate { cart { id } } }');
    expect(admin.body.errors[0].message).toMatch(/cartCreate/);
  });

  it('needs the right token and an API version; a retired version falls forward to the oldest served, as Shopify does', async () => {
    expect((await gql('storefront', '{ shop { name } }', {}, { 'Shopify-Storefront-Private-Token': 'wrong' })).status).toBe(401);
    const retired = await fetch(`${sim.url}/admin/api/2019-01/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Shopify-Access-Token': sim.credentials.adminToken },
      body: JSON.stringify({ query: '{ publicApiVersions { handle supported } }' }),
    });
    expect(retired.headers.get('x-shopify-api-version')).toBe('2026-10');
    expect(((await retired.json()) as { data: unknown }).data).toEqual({ publicApiVersions: [{ handle: '2026-10', supported: true }] });
    for (const version of ['2099-01', '2026-05', 'latest'])
      expect((await fetch(`${sim.url}/api/${version}/graphql.json`, { method: 'POST', body: '{}' })).status, version).toBe(404);
  });

  it('keeps a cart from search to a paid, fulfilled and refunded order, with signed webhooks', async () => {
    const found = await gql(
      'storefront',
      `query($q: String!) {
        search(query: $q, first: 5, types: [PRODUCT]) {
          totalCount nodes { ... on Product { title variants(first: 5) { nodes { id sku } } } }
        }
      }`,
      { q: 'roses' },
    );
    const roses = found.body.data.search.nodes.find((p: any) => p.title === 'Bouquet of Red Roses');
    const variantId = roses.variants.nodes[0].id;

    const created = await gql(
      'storefront',
      `mutation($input: CartInput!) {
        cartCreate(input: $input) { cart { ${CART_FIELDS} } userErrors { code message } warnings { code } }
      }`,
      {
        input: {
          lines: [{ merchandiseId: variantId, quantity: 2 }],
          discountCodes: ['10off', 'WHATEVER'],
          attributes: [{ key: '_checkout', value: 'chk_1' }],
          buyerIdentity: { email: 'ann@example.com', countryCode: 'US' },
        },
      },
    );
    const cart = created.body.data.cartCreate.cart;
    expect(cart.discountCodes).toEqual([
      { code: '10off', applicable: true },
      { code: 'WHATEVER', applicable: false },
    ]);
    expect(created.body.data.cartCreate.warnings).toEqual([{ code: 'DISCOUNT_NOT_FOUND' }]);
    expect(cart.cost.subtotalAmount).toEqual({ amount: '70.0', currencyCode: 'USD' });
    expect(cart.cost.totalAmount.amount).toBe('63.0');
    expect(cart.deliveryGroups.nodes).toEqual([]);

    const addressed = await gql(
      'storefront',
      `mutation($id: ID!, $a: [CartSelectableAddressInput!]!) {
        cartDeliveryAddressesAdd(cartId: $id, addresses: $a) { cart { ${CART_FIELDS} } userErrors { message } }
      }`,
      {
        id: cart.id,
        a: [
          {
            address: {
              deliveryAddress: { address1: '1 Main St', city: 'Springfield', provinceCode: 'IL', countryCode: 'US', zip: '62704' },
            },
            selected: true,
          },
        ],
      },
    );
    const group = addressed.body.data.cartDeliveryAddressesAdd.cart.deliveryGroups.nodes[0];
    expect(group.deliveryOptions.map((o: any) => [o.title, o.estimatedCost.amount])).toEqual([
      ['Standard Shipping', '5.0'],
      ['Express Shipping (US)', '15.0'],
    ]);
    const selected = await gql(
      'storefront',
      `mutation($id: ID!, $s: [CartSelectedDeliveryOptionInput!]!) {
        cartSelectedDeliveryOptionsUpdate(cartId: $id, selectedDeliveryOptions: $s) { cart { ${CART_FIELDS} } userErrors { code } }
      }`,
      { id: cart.id, s: [{ deliveryGroupId: group.id, deliveryOptionHandle: group.deliveryOptions[1].handle }] },
    );
    // Express costs 15, freed by the shop's automatic "free shipping on rose bouquets".
    const withOption = selected.body.data.cartSelectedDeliveryOptionsUpdate.cart;
    expect(withOption.deliveryGroups.nodes[0].selectedDeliveryOption.handle).toBe(group.deliveryOptions[1].handle);
    expect(withOption.cost.totalAmount.amount).toBe('63.0');

    const paid = await fetch(`${cart.checkoutUrl.replace(/\?.*$/, '')}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const { order } = (await paid.json()) as { order: { id: string } };
    expect(await gql('storefront', 'query($id: ID!) { cart(id: $id) { id } }', { id: cart.id })).toMatchObject({
      body: { data: { cart: null } },
    });

    // A paid order is announced twice: orders/create, then orders/paid.
    expect(sim.webhooks.deliveries.slice(-2).map((d) => d.topic)).toEqual(['orders/create', 'orders/paid']);
    const delivery = sim.webhooks.deliveries.at(-2)!;
    expect(delivery.headers['x-shopify-hmac-sha256']).toBe(
      createHmac('sha256', sim.credentials.clientSecret).update(delivery.body).digest('base64'),
    );
    expect(JSON.parse(delivery.body)).toMatchObject({
      admin_graphql_api_id: order.id,
      note_attributes: [{ name: '_checkout', value: 'chk_1' }],
    });

    const ORDER = `query($id: ID!) { order(id: $id) { name customAttributes { key value }
      totalPriceSet { shopMoney { amount } } totalTaxSet { shopMoney { amount } }
      lineItems(first: 5) { nodes { id quantity currentQuantity unfulfilledQuantity } }
      fulfillments(first: 5) { trackingInfo { company number url } }
      refunds(first: 5) { totalRefundedSet { shopMoney { amount } } } } }`;
    const placed = (await gql('admin', ORDER, { id: order.id })).body.data.order;
    // 70 - 7 (10OFF) + 15 express - 15 (free shipping on roses) + Illinois 6.25% of 63 = 3.94
    expect(placed.totalPriceSet.shopMoney.amount).toBe('66.94');
    expect(placed.totalTaxSet.shopMoney.amount).toBe('3.94');
    const lineId = placed.lineItems.nodes[0].id;

    await sim.orders.fulfill(order.id, { tracking: { company: 'UPS', number: '1Z999', url: 'https://ups.example/1Z999' } });
    await sim.orders.refund(order.id, { lines: [{ lineItemId: lineId, quantity: 1 }] });
    const after = (await gql('admin', ORDER, { id: order.id })).body.data.order;
    expect(after.fulfillments[0].trackingInfo).toEqual([{ company: 'UPS', number: '1Z999', url: 'https://ups.example/1Z999' }]);
    expect(after.lineItems.nodes[0]).toMatchObject({ quantity: 2, currentQuantity: 1, unfulfilledQuantity: 0 });
    // One of two roses: 31.50 of the discounted line and 1.97 of its tax (Shopify refunds the tax added on top).
    expect(after.refunds[0].totalRefundedSet.shopMoney.amount).toBe('33.47');
    expect(sim.webhooks.deliveries.map((d) => d.topic).slice(-4)).toEqual([
      'fulfillments/create',
      'orders/updated',
      'refunds/create',
      'orders/updated',
    ]);
  });

  it('prices in the currency of the buyer country, exact to its minor unit', async () => {
    const q = `query($h: String!, $c: CountryCode) @inContext(country: $c) {
      product(handle: $h) { variants(first: 1) { nodes { price { amount currencyCode } } } }
    }`;
    const price = async (c: string) => (await gql('storefront', q, { h: 'red-rose-bouquet', c })).body.data.product.variants.nodes[0].price;
    expect(await price('JP')).toEqual({ amount: '5250.0', currencyCode: 'JPY' });
    expect(await price('KW')).toEqual({ amount: '10.745', currencyCode: 'KWD' });
  });

  it('throttles and fails on demand', async () => {
    sim.faults.inject({ type: 'throttle' }, { target: 'admin' });
    const throttled = await gql('admin', '{ shop { name } }');
    expect(throttled.status).toBe(200);
    expect(throttled.body.errors[0].extensions.code).toBe('THROTTLED');
    expect(throttled.body.extensions.cost.throttleStatus).toMatchObject({ currentlyAvailable: 10, restoreRate: 100 });
    sim.faults.inject({ type: 'status', status: 429, retryAfterSeconds: 2 }, { target: 'storefront' });
    expect((await gql('storefront', '{ shop { name } }').catch(() => ({ status: 0 }))).status).toBe(429);
    expect((await gql('admin', '{ shop { name } }')).body.data.shop.name).toBe('Petal & Stem Flower Co.');
  });

  it('issues expiring Admin tokens by the client-credentials grant', async () => {
    const res = await fetch(`${sim.url}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: sim.credentials.clientId,
        client_secret: sim.credentials.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
    const grant = (await res.json()) as { access_token: string; expires_in: number };
    expect(grant.expires_in).toBeGreaterThan(0);
    const { body } = await gql('admin', '{ shop { myshopifyDomain } }', {}, { 'X-Shopify-Access-Token': grant.access_token });
    expect(body.data.shop.myshopifyDomain).toBe('petal-and-stem.myshopify.com');
  });
});

describe('Shopify simulator: carrier-calculated rates', () => {
  it('refuses withCarrierRates outside @defer, and answers it under @defer as multipart/mixed, pending first', async () => {
    const carrier = await startShopifySimulator({ carrierRates: { pendingReads: 1 } });
    try {
      const post = (query: string, variables: Record<string, unknown> = {}) =>
        fetch(`${carrier.url}/api/2026-10/graphql.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'Shopify-Storefront-Private-Token': carrier.credentials.storefrontToken },
          body: JSON.stringify({ query, variables }),
        });
      const roses = carrier.shop.ids.gid('ProductVariant', 'bouquet_roses');
      const created = (await (
        await post(
          `mutation($input: CartInput!) {
            cartCreate(input: $input) { cart { id deliveryGroups(first: 5) { nodes { deliveryOptions { handle } } } } }
          }`,
          {
            input: {
              lines: [{ merchandiseId: roses, quantity: 1 }],
              delivery: {
                addresses: [
                  {
                    selected: true,
                    address: {
                      deliveryAddress: { address1: '1 Main St', city: 'Chicago', provinceCode: 'IL', countryCode: 'US', zip: '60606' },
                    },
                  },
                ],
              },
            },
          },
        )
      ).json()) as any;
      // Static rates only by default: this shop has none.
      expect(created.data.cartCreate.cart.deliveryGroups.nodes[0].deliveryOptions).toEqual([]);
      const cartId = created.data.cartCreate.cart.id;

      const undeferred = (await (
        await post(`query($id: ID!) { cart(id: $id) { deliveryGroups(first: 5, withCarrierRates: true) { nodes { id } } } }`, {
          id: cartId,
        })
      ).json()) as any;
      expect(undeferred.errors[0].message).toMatch(/@defer/);

      const deferred = `query($id: ID!) {
        cart(id: $id) { id ... @defer { deliveryGroups(first: 5, withCarrierRates: true) { nodes { deliveryOptions { title } } } } }
      }`;
      const read = async () => {
        const res = await post(deferred, { id: cartId });
        expect(res.headers.get('content-type')).toMatch(/^multipart\/mixed; boundary="graphql"/);
        const parts = (await res.text())
          .split('--graphql')
          .map((p) => p.slice(p.indexOf('\r\n\r\n') + 4).trim())
          .filter((p) => p.startsWith('{'))
          .map((p) => JSON.parse(p));
        expect(parts[0]).toEqual({ data: { cart: { id: cartId } }, hasNext: true });
        expect(parts[1]).toMatchObject({ hasNext: false, incremental: [{ path: ['cart'] }] });
        return parts[1].incremental[0].data.deliveryGroups.nodes[0].deliveryOptions.map((o: any) => o.title);
      };
      expect(await read()).toEqual([]);
      expect(await read()).toEqual(['Standard Shipping', 'Express Shipping (US)']);

      // In a mutation's payload alike; a deferred fragment left out by @include has no part.
      const update = `mutation($id: ID!, $rates: Boolean!) {
        cartNoteUpdate(cartId: $id, note: "gift") {
          cart { note ... @defer @include(if: $rates) { deliveryGroups(first: 5, withCarrierRates: true) { nodes { id } } } }
        }
      }`;
      const plain = await post(update, { id: cartId, rates: false });
      expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await plain.json()).toEqual({ data: { cartNoteUpdate: { cart: { note: 'gift' } } } });
      const withRates = await post(update, { id: cartId, rates: true });
      expect(withRates.headers.get('content-type')).toMatch(/^multipart\/mixed/);
      expect(await withRates.text()).toContain('"incremental":[{"path":["cartNoteUpdate","cart"],"data":{"deliveryGroups"');
    } finally {
      await carrier.close();
    }
  });
});
