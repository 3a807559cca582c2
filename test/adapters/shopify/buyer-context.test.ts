/**
 * What a Shopify store learns of the buyer's request through the gateway: the buyer's IP in
 * `Shopify-Storefront-Buyer-IP` (the real client behind a trusted proxy, never a forged one), the
 * buyer's language in `@inContext(language:)` (French titles from the shop's translations), and
 * local pickup from `storeAvailability` offered in checkout fulfillment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { protocolCaller } from '../../helpers/protocol-client.js';
import { shopifySetup, type ShopifySetup } from './helpers.js';

const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.7';

let s: ShopifySetup;
let gw: TestGateway;

beforeAll(async () => {
  s = await shopifySetup();
  gw = await testGateway({
    adapter: s.adapter,
    tenant: { adapter: { type: 'shopify', settings: {} }, payment_handlers: [] },
    trustProxy: [PROXY],
  });
});
afterAll(async () => {
  await gw.close();
  await s.close();
});

async function call(method: 'POST' | 'PUT', url: string, body: unknown, headers: Record<string, string> = {}, remoteAddress = PROXY) {
  const res = await gw.app.inject({ method, url, headers: gw.headers(headers), payload: JSON.stringify(body), remoteAddress });
  return { status: res.statusCode, body: res.json() };
}

/** Storefront calls the simulator received since `from`, with the buyer IP each carried. */
const storefrontCalls = (from: number) => s.sim.calls.slice(from).filter((c) => c.api === 'storefront');

describe('the buyer IP', () => {
  it('reaches Shopify with every catalog, cart and checkout call: the client behind the trusted proxy', async () => {
    const from = s.sim.calls.length;
    const found = await call('POST', '/catalog/search', { query: 'sunflowers' }, { 'x-forwarded-for': CLIENT });
    const variant = found.body.products[0].variants[0].id;
    await call('POST', '/catalog/product', { id: variant }, { 'x-forwarded-for': CLIENT });
    const cart = await call('POST', '/carts', { line_items: [{ item: { id: variant }, quantity: 1 }] }, { 'x-forwarded-for': CLIENT });
    expect(cart.status).toBe(201);
    const checkout = await call('POST', '/checkout-sessions', { cart_id: cart.body.id }, { 'x-forwarded-for': CLIENT });
    expect(checkout.status).toBe(201);

    const calls = storefrontCalls(from);
    expect(calls.map((c) => c.operationName)).toEqual(expect.arrayContaining(['Search', 'Nodes', 'CartCreate']));
    expect(calls.map((c) => c.buyerIp)).toEqual(calls.map(() => CLIENT));
  });

  it('is the peer itself when the peer is no trusted proxy (a forged X-Forwarded-For is not believed)', async () => {
    const from = s.sim.calls.length;
    await call('POST', '/catalog/search', { query: 'tulips' }, { 'x-forwarded-for': CLIENT }, '198.51.100.9');
    expect(storefrontCalls(from).map((c) => c.buyerIp)).toEqual(['198.51.100.9']);
  });

  it('never appears in the gateway logs', () => {
    expect(gw.rawLogs.filter((line) => line.includes(CLIENT))).toEqual([]);
  });
});

describe('the buyer language', () => {
  const search = (language?: string) =>
    call('POST', '/catalog/search', { query: 'roses' }, language ? { 'accept-language': language } : {}).then((r) =>
      r.body.products.map((p: { title: string }) => p.title),
    );

  it("French (Accept-Language) gets the shop's French titles and descriptions; no language, the shop's own", async () => {
    expect(await search('fr-CA,fr;q=0.9,en;q=0.5')).toContain('Bouquet de roses rouges');
    // Same request without the header: not the French answer from a cache.
    expect(await search()).toContain('Bouquet of Red Roses');
    const product = await call(
      'POST',
      '/catalog/product',
      { id: s.sim.shop.ids.gid('Product', 'pot_ceramic') },
      { 'accept-language': 'fr' },
    );
    expect(product.body.product.title).toBe('Pot en céramique');
  });

  it('reads Accept-Language on MCP calls too (the HTTP request carrying the call)', async () => {
    const { mcp } = protocolCaller(gw, () => undefined);
    const found = await mcp('search_catalog', { catalog: { query: 'roses' } }, { headers: { 'accept-language': 'fr' } });
    expect(found.body.products.map((p: { title: string }) => p.title)).toContain('Bouquet de roses rouges');
  });

  it('prices a French cart with French line titles (the cart calls run in the same context)', async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const cart = await call('POST', '/carts', { line_items: [{ item: { id: roses }, quantity: 1 }] }, { 'accept-language': 'fr' });
    expect(cart.body.line_items[0].item.title).toBe('Bouquet de roses rouges');
  });

  it('a language the shop does not publish, or Shopify does not know, gets the default texts', async () => {
    expect(await search('de-DE')).toContain('Bouquet of Red Roses');
    expect(await search('tlh')).toContain('Bouquet of Red Roses');
  });
});

describe('local pickup', () => {
  it("offers the shop's pickup locations in checkout fulfillment, with a free option where the items are in stock", async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const created = (await call('POST', '/checkout-sessions', { line_items: [{ item: { id: roses }, quantity: 2 }], buyer: BUYER })).body;
    const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const update = (fulfillment: unknown) =>
      call('PUT', `/checkout-sessions/${created.id}`, { line_items: lines, buyer: BUYER, fulfillment }).then((r) => r.body);

    const asked = await update({ methods: [{ type: 'pickup' }] });
    const method = asked.fulfillment.methods[0];
    const loop = s.sim.shop.ids.gid('Location', 'loop');
    expect(method.destinations.map((d: any) => [d.id, d.name, d.address.address_locality])).toEqual([
      [loop, 'Petal & Stem Loop Studio', 'Chicago'],
      [s.sim.shop.ids.gid('Location', 'evanston'), 'Petal & Stem Evanston Shop', 'Evanston'],
    ]);

    const atLoop = await update({ methods: [{ id: method.id, type: 'pickup', selected_destination_id: loop }] });
    const group = atLoop.fulfillment.methods[0].groups[0];
    expect(group.options).toHaveLength(1);
    expect(group.options[0]).toMatchObject({
      id: loop,
      title: 'Pick up at Petal & Stem Loop Studio',
      description: 'Usually ready in 2 hours',
    });

    const chosen = await update({
      methods: [{ id: method.id, type: 'pickup', selected_destination_id: loop, groups: [{ id: group.id, selected_option_id: loop }] }],
    });
    expect(chosen.fulfillment.methods[0].groups[0].selected_option_id).toBe(loop);
    expect(chosen.totals.find((t: any) => t.type === 'fulfillment')?.amount).toBe(0);
    // Taxed where it is collected (Chicago, Shopify's draftOrderCalculate): ready for the handoff.
    // 70.00 at Chicago's 6.25%.
    expect(chosen.totals.find((t: any) => t.type === 'tax')?.amount).toBe(438);
    expect(chosen.status).toBe('ready_for_complete');
    // Shopify's checkout opens on local pickup at that location.
    const cart = [...s.sim.carts.all()].at(-1)!;
    expect(cart.buyer.preferences?.delivery).toEqual({ deliveryMethod: ['PICK_UP'], pickupHandle: [loop] });
  });

  it('is not placed as a paid draft order (a draft has no pickup location): refused as incomplete, nothing created', async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const loop = s.sim.shop.ids.gid('Location', 'loop');
    const drafts = s.sim.drafts.all().length;
    const placed = await s.adapter.placeOrder({
      reference: 'chk_pickup_paid',
      quote: {
        lines: [{ lineId: 'l1', variantId: roses, quantity: 1 }],
        discountCodes: [],
        fulfillment: {
          multiGroup: false,
          methods: [
            { methodId: 'm1', type: 'pickup', lineIds: ['l1'], destination: { locationId: loop }, selectedOptions: { pickup: loop } },
          ],
        },
      },
      expectedTotal: 3719,
      buyer: { email: BUYER.email },
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_1', amount: 3719 } },
    });
    expect(placed).toMatchObject({ status: 'rejected', reason: 'incomplete' });
    expect(s.sim.drafts.all()).toHaveLength(drafts);
  });

  it('says so when the location lacks the stock', async () => {
    const sunflowers = s.sim.shop.ids.gid('ProductVariant', 'bouquet_sunflowers');
    const created = (await call('POST', '/checkout-sessions', { line_items: [{ item: { id: sunflowers }, quantity: 1 }], buyer: BUYER }))
      .body;
    const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const evanston = s.sim.shop.ids.gid('Location', 'evanston');
    const body = (
      await call('PUT', `/checkout-sessions/${created.id}`, {
        line_items: lines,
        buyer: BUYER,
        fulfillment: { methods: [{ type: 'pickup', selected_destination_id: evanston }] },
      })
    ).body;
    expect(body.fulfillment.methods[0].groups[0].options).toEqual([]);
    expect(body.messages.map((m: any) => [m.code, m.path])).toContainEqual([
      'fulfillment_unavailable',
      '$.fulfillment.methods[0].groups[0]',
    ]);
  });
});
