import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../../adapters/contract.js';
import { ConfigError } from '../../../adapters/kit/config-error.js';
import { createAdapter } from '../../../adapters/registry.js';
import { MemoryStore } from '../../../src/state/memory-store.js';
import { shopifySetup, type ShopifySetup } from './helpers.js';

let s: ShopifySetup;
beforeAll(async () => {
  // A shop with static rates only: no carrier-rate reads, so the call counts below are the cart's own.
  s = await shopifySetup({
    settings: { carrier_rates: false },
    markets: [
      { country: 'US', currency: 'USD' },
      { country: 'JP', currency: 'JPY' },
      { country: 'KW', currency: 'KWD' },
    ],
  });
});
afterAll(() => s.close());

const ADDRESS = { streetAddress: '1 Main St', locality: 'Springfield', region: 'IL', country: 'US', postalCode: '62704' };
const operations = () => s.sim.calls.map((c) => c.operationName);

async function variantOf(handle: string, title?: string) {
  const [found] = await s.adapter.lookup([handle]);
  return found!.product.variants.find((v) => !title || v.title === title)!;
}

describe('Shopify adapter: catalog', () => {
  it('maps a product with options, exact prices and availability from the encoded matrix', async () => {
    const [found] = await s.adapter.lookup(['florist-tee']);
    const tee = found!.product;
    expect(tee.options).toEqual([
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Color', values: ['Green', 'White'] },
    ]);
    expect(tee.variants.map((v) => [v.title, v.price.amount, v.availability.status])).toEqual([
      ['S / Green', 2400, 'in_stock'],
      ['M / Green', 2400, 'in_stock'],
      ['L / Green', 2600, 'in_stock'],
      ['M / White', 2400, 'in_stock'],
      ['L / White', 2600, 'out_of_stock'],
    ]);
    expect(found!.inputs).toEqual([{ id: 'florist-tee', variantId: tee.featuredVariantId, match: 'featured' }]);
    expect(tee.categories).toEqual([
      { value: 'Apparel', taxonomy: 'merchant' },
      { value: 'Shirts & Tops', taxonomy: 'shopify' },
    ]);
  });

  it('treats Shopify\'s "Default Title" option as no option, and backorder as backorder', async () => {
    const [vase] = await s.adapter.lookup(['glass-vase']);
    expect(vase!.product.options).toEqual([]);
    expect(vase!.product.variants[0]).toMatchObject({
      title: 'Glass Vase',
      options: [],
      availability: { available: true, status: 'backorder', quantity: null },
    });
  });

  it('looks up by gid, SKU (Admin API) and handle in one answer per product; archived products are not found', async () => {
    const tee = await variantOf('florist-tee', 'M / White');
    const found = await s.adapter.lookup([
      tee.productId,
      'TEE-L-GRN',
      'red-rose-bouquet',
      'holiday-wreath',
      'WRT-HOL-50',
      'gid://shopify/Product/1',
    ]);
    expect(found.map((r) => r.product.title)).toEqual(['Florist Tee', 'Bouquet of Red Roses']);
    expect(found[0]!.inputs.map((i) => [i.id, i.match])).toEqual([
      [tee.productId, 'featured'],
      ['TEE-L-GRN', 'exact'],
    ]);
  });

  it('searches with filters and pages with its own token; a token of another query is refused', async () => {
    const first = await s.adapter.search({ text: 'bouquet', limit: 2 });
    expect(first.products).toHaveLength(2);
    const second = await s.adapter.search({ text: 'bouquet', limit: 2, pageToken: first.nextPageToken! });
    expect(second.products.map((p) => p.id)).not.toContain(first.products[0]!.id);
    await expect(s.adapter.search({ text: 'roses', limit: 2, pageToken: first.nextPageToken! })).rejects.toThrow(/page token/);
    const cheap = await s.adapter.search({ limit: 20, price: { max: 2000, currency: 'USD' }, custom: { available: true } });
    expect(cheap.products.map((p) => p.title).sort()).toEqual(['Ceramic Pot', 'Glass Vase', 'The Flower Care Handbook (e-book)']);
    const bouquets = await s.adapter.search({ limit: 20, categories: ['Vases', 'Pots'] });
    expect(bouquets.products.map((p) => p.title).sort()).toEqual(['Ceramic Pot', 'Glass Vase']);
  });

  it('prices in the market of the currency, exact to its minor unit (JPY 0, KWD 3 decimals)', async () => {
    const page = await s.adapter.search({ text: 'roses', limit: 1, price: { min: 1, currency: 'KWD' } });
    expect(page.products[0]!.variants[0]!.price).toEqual({ amount: 10_745, currency: 'KWD' });
    const roses = await variantOf('red-rose-bouquet');
    const yen = await s.adapter.quote({ currency: 'JPY', lines: [{ lineId: 'a', variantId: roses.id, quantity: 3 }], discountCodes: [] });
    expect(yen.currency).toBe('JPY');
    expect(yen.lines[0]).toMatchObject({ unitPrice: 5250, subtotal: 15_750 });
  });
});

describe('Shopify adapter: carts', () => {
  it('keeps one Shopify cart per session: one call per quote, and the checkout URL carries the reference', async () => {
    const roses = await variantOf('red-rose-bouquet');
    const request: QuoteRequest = { lines: [{ lineId: 'li_1', variantId: roses.id, quantity: 2 }], discountCodes: ['10off', 'NOPE'] };
    s.sim.resetCalls();
    const created = await s.adapter.quote(request);
    expect(created.discounts.applied).toMatchObject([
      { code: '10off', amount: 700, allocations: [{ target: { kind: 'line', lineId: 'li_1' }, amount: 700 }] },
    ]);
    expect(created.discounts.rejected).toEqual([{ code: 'NOPE', index: 1 }]);
    expect(created.totals).toEqual({ subtotal: 7000, itemsDiscount: 700, discount: 0, shipping: null, tax: null, total: 6300 });

    const again = await s.adapter.quote({ ...request, handle: created.handle! });
    expect(again.totals).toEqual(created.totals);
    const shipping = (selectedOptions?: Record<string, string>) => ({
      methods: [
        {
          methodId: 'm1',
          type: 'shipping' as const,
          lineIds: ['li_1'],
          destination: { address: ADDRESS },
          ...(selectedOptions && { selectedOptions }),
        },
      ],
      multiGroup: false,
    });
    const addressed = await s.adapter.quote({
      ...request,
      handle: again.handle!,
      buyer: { email: 'ann@example.com' },
      fulfillment: shipping(),
    });
    const group = addressed.fulfillment![0]!.groups[0]!;
    expect(group.options.map((o) => [o.title, o.amount])).toEqual([
      ['Standard Shipping', 500],
      ['Express Shipping (US)', 1500],
    ]);
    const chosen = await s.adapter.quote({
      ...request,
      handle: addressed.handle!,
      buyer: { email: 'ann@example.com' },
      fulfillment: shipping({ [group.key]: group.options[1]!.id }),
    });
    expect(chosen.fulfillment![0]!.groups[0]!.selectedOptionId).toBe(group.options[1]!.id);
    // Express is freed by the shop's automatic "free shipping on rose bouquets"; Illinois tax
    // (6.25% of 63.00) comes from Shopify's draft order calculation, once an option is chosen.
    expect(chosen.totals).toEqual({ subtotal: 7000, itemsDiscount: 700, discount: 1500, shipping: 1500, tax: 394, total: 6694 });
    expect(chosen.taxLines).toEqual([{ title: 'Illinois sales tax', amount: 394 }]);
    const reread = await s.adapter.quote({
      ...request,
      handle: chosen.handle!,
      buyer: { email: 'ann@example.com' },
      fulfillment: shipping({ [group.key]: group.options[1]!.id }),
    });
    expect(reread.totals).toEqual(chosen.totals);
    const page = await s.adapter.checkoutUrl({ reference: 'chk_1', handle: reread.handle!, quote: request });
    const again2 = await s.adapter.checkoutUrl({ reference: 'chk_1', handle: reread.handle!, quote: request });
    expect(again2.url).toBe(page.url);
    expect(operations()).toEqual(['CartCreate', 'Cart', 'CartSync', 'CartSync', 'DraftOrderCalculate', 'Cart', 'CartAttributes']);
  });

  it('reports lines Shopify does not sell, and caps to stock', async () => {
    const tee = await variantOf('florist-tee', 'L / White');
    const pot = await variantOf('ceramic-pot');
    const q = await s.adapter.quote({
      lines: [
        { lineId: 'a', variantId: tee.id, quantity: 1 },
        { lineId: 'b', variantId: 'gid://shopify/ProductVariant/1', quantity: 1 },
        { lineId: 'c', variantId: pot.id, quantity: 5000 },
        { lineId: 'd', variantId: pot.id, quantity: 0 },
      ],
      discountCodes: [],
    });
    expect(q.lineProblems).toEqual([
      { lineId: 'a', code: 'out_of_stock' },
      { lineId: 'b', code: 'not_found' },
      { lineId: 'c', code: 'insufficient_stock', available: 2000 },
      { lineId: 'd', code: 'invalid_quantity' },
    ]);
    expect(q.lines.map((l) => [l.lineId, l.quantity])).toEqual([['c', 5000]]);
  });

  it('replaces a cart Shopify no longer knows', async () => {
    const roses = await variantOf('red-rose-bouquet');
    const request: QuoteRequest = { lines: [{ lineId: 'x', variantId: roses.id, quantity: 1 }], discountCodes: [] };
    const first = await s.adapter.quote(request);
    s.sim.carts.remove(s.sim.carts.find(JSON.parse(first.handle!).cart)!);
    const second = await s.adapter.quote({ ...request, handle: first.handle! });
    expect(JSON.parse(second.handle!).cart).not.toBe(JSON.parse(first.handle!).cart);
    expect(second.lines).toHaveLength(1);
  });
});

describe('Shopify adapter: orders and webhooks', () => {
  it("verifies a paid handoff's webhook, and reads the order with tracking and refunds", async () => {
    const roses = await variantOf('red-rose-bouquet');
    const request: QuoteRequest = { lines: [{ lineId: 'li_9', variantId: roses.id, quantity: 2 }], discountCodes: ['10OFF'] };
    const quote = await s.adapter.quote(request);
    const { url } = await s.adapter.checkoutUrl({ reference: 'chk_9', handle: quote.handle!, quote: request });
    const placed = await s.sim.pay(url);
    // Shopify announces a paid order twice: orders/create, then orders/paid (docs/adapters/shopify.md, Store calls).
    expect(s.sim.webhooks.deliveries.slice(-2).map((d) => d.topic)).toEqual(['orders/create', 'orders/paid']);
    const delivery = s.sim.webhooks.deliveries.at(-2)!;
    const event = s.adapter.verifyWebhook(delivery.headers, Buffer.from(delivery.body));
    expect(event).toMatchObject({
      kind: 'order',
      topic: 'orders/create',
      reference: 'chk_9',
      eventId: delivery.headers['x-shopify-event-id'],
    });
    expect(s.adapter.verifyWebhook({ ...delivery.headers, 'x-shopify-hmac-sha256': 'AAAA' }, Buffer.from(delivery.body))).toBeNull();
    expect(s.adapter.verifyWebhook(delivery.headers, Buffer.from(delivery.body.replace('chk_9', 'chk_8')))).toBeNull();

    const orderId = (event as { orderId: string }).orderId;
    const { fulfillment } = await s.sim.orders.fulfill(placed.id, {
      tracking: { company: 'UPS', number: '1Z999', url: 'https://ups.example/1Z999' },
    });
    await s.sim.orders.fulfillmentEvent(placed.id, fulfillment.id, 'DELIVERED');
    const line = placed.lines[0]!.id;
    await s.sim.orders.refund(placed.id, { lines: [{ lineItemId: line, quantity: 1 }] });
    const snapshot = (await s.adapter.getOrder(orderId))!;
    expect(snapshot).toMatchObject({ id: orderId, reference: 'chk_9', currency: 'USD' });
    expect(snapshot.lines).toEqual([
      expect.objectContaining({
        checkoutLineId: 'li_9',
        unitPrice: 3500,
        subtotal: 7000,
        discount: 700,
        quantity: { original: 2, current: 1, fulfilled: 2 },
      }),
    ]);
    expect(snapshot.events.map((e) => [e.type, e.trackingNumber, e.trackingUrl, e.carrier])).toEqual([
      ['shipped', '1Z999', 'https://ups.example/1Z999', 'UPS'],
      ['delivered', '1Z999', 'https://ups.example/1Z999', 'UPS'],
    ]);
    // One bouquet after 10OFF (31.50) with its Illinois tax (1.97): Shopify refunds a line with the tax on it.
    expect(snapshot.adjustments).toEqual([
      expect.objectContaining({ type: 'refund', status: 'completed', amount: -3347, lines: [{ id: snapshot.lines[0]!.id, quantity: -1 }] }),
    ]);
    // Chicago, Illinois 6.25% tax on 63.00 at Shopify's checkout; shipping free for roses.
    expect(snapshot.totals).toEqual({ subtotal: 7000, itemsDiscount: 700, discount: 500, shipping: 500, tax: 394, total: 6694 });
    expect(await s.adapter.getOrder('999999')).toBeNull();
    expect(await s.adapter.getOrder('not-a-number')).toBeNull();
  });

  it('registers the order webhooks once', async () => {
    const first = await s.adapter.registerWebhooks('https://gateway.example/webhooks/backend');
    expect(first.created).toHaveLength(6);
    const second = await s.adapter.registerWebhooks('https://gateway.example/webhooks/backend');
    expect(second).toEqual({ created: [], existing: first.created });
  });

  it('gets Admin tokens by the client-credentials grant, and a new one before the last expires', async () => {
    const lasting = await shopifySetup({ grant: true });
    // Shopify's tokens last a day: one grant serves many calls.
    const brief = await shopifySetup({ grant: true, simulator: { tokenTtlSeconds: 30 } });
    try {
      await lasting.adapter.ping();
      await lasting.adapter.ping();
      expect([lasting.sim.grantsIssued, lasting.sim.calls.map((c) => c.operationName)]).toEqual([1, ['Shop', 'Shop']]);
      // A token that expires within the refresh margin (a minute) is replaced before it is used again.
      await brief.adapter.ping();
      await brief.adapter.ping();
      expect(brief.sim.grantsIssued).toBe(2);
    } finally {
      await lasting.close();
      await brief.close();
    }
  });

  it("sends each tenant's calls and grant to its own api_origin, even for tenants of one shop", async () => {
    // Two tenants of one shop domain (a staging simulator beside another): neither's grant reaches the other.
    const shop = `petal-twins-${process.pid}.myshopify.com`;
    const one = await shopifySetup({ shop, grant: true });
    const two = await shopifySetup({ shop, grant: true });
    try {
      await one.adapter.ping();
      await two.adapter.ping();
      expect([one.sim.grantsIssued, two.sim.grantsIssued]).toEqual([1, 1]);
      expect([one.sim.calls.map((c) => c.operationName), two.sim.calls.map((c) => c.operationName)]).toEqual([['Shop'], ['Shop']]);
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('Shopify adapter: tenant settings', () => {
  const context = { baseDir: '.', where: 'shop.yaml', now: Date.now, store: new MemoryStore(), tenantId: 't' };
  it('needs the Storefront token and an Admin credential, as references', async () => {
    await expect(
      createAdapter(
        { type: 'shopify', settings: { shop: 'a.myshopify.com' } },
        { ...context, credentials: { admin_token: 'x', webhook_secret: 'y' } },
      ),
    ).rejects.toThrow(ConfigError);
    await expect(createAdapter({ type: 'shopify', settings: { shop: 'not a shop' } }, { ...context, credentials: {} })).rejects.toThrow(
      /shop/,
    );
    const built = await createAdapter(
      { type: 'shopify', settings: { shop: 'a.myshopify.com' } },
      { ...context, credentials: { storefront_token: 's', client_id: 'c', client_secret: 'd' } },
    );
    expect(built.adapter.capabilities.currencies).toEqual(['USD']);
    expect(built.adapter.storefrontUrl).toBe('https://a.myshopify.com');
  });
});
