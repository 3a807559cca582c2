/**
 * The Shopify walks of issue 26, through the gateway: a checkout finished by handoff (the buyer pays
 * on Shopify's checkout) and one finished gateway_charged (a paid draft order), each on a shop that
 * adds tax and on one whose prices include it. Every time, the order Shopify records totals exactly
 * what the agent was quoted.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../../../helpers/gateway.js';
import { startPlatform, type PlatformServer } from '../../../helpers/platform.js';
import { pay } from '../../../helpers/sandbox-payment.js';
import { shopifySetup, type ShopifySetup } from '../helpers.js';

const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
/** The platform's API key: orders are read only with credentials. */
const API_KEY = 'walk-platform-key';

const CHICAGO = {
  street_address: '233 S Wacker Dr',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60606',
};

describe.each([
  { setting: 'adds tax', taxesIncluded: false },
  { setting: 'includes tax in its prices', taxesIncluded: true },
])('a Shopify shop that $setting', ({ taxesIncluded }) => {
  let s: ShopifySetup;
  let handoff: TestGateway;
  let charged: TestGateway;
  let platform: PlatformServer;

  beforeAll(async () => {
    platform = await startPlatform();
    s = await shopifySetup({ simulator: { taxesIncluded } });
    handoff = await testGateway({ adapter: s.adapter, tenant: { adapter: { type: 'shopify', settings: {} }, payment_handlers: [] } });
    // The default test tenant's sandbox card handler charges in the gateway.
    charged = await testGateway({
      adapter: s.adapter,
      platform,
      tenant: {
        adapter: { type: 'shopify', settings: {}, finishing: 'gateway_charged' },
        auth: { api_keys: [{ sha256: createHash('sha256').update(API_KEY).digest('hex'), profile: platform.url() }] },
      },
    });
  });
  afterAll(async () => {
    await handoff.close();
    await charged.close();
    await platform.close();
    await s.close();
  });

  const caller =
    (gw: TestGateway, headers: Record<string, string> = {}) =>
    async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
      const res = await gw.app.inject({
        method,
        url,
        headers: gw.headers(headers),
        ...(body !== undefined && { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, body: res.json() };
    };

  /** A checkout of two rose bouquets and a sunflower bouquet to Chicago, express shipping: ready, with its total. */
  async function readyCheckout(gw: TestGateway) {
    const call = caller(gw);
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const sunflowers = s.sim.shop.ids.gid('ProductVariant', 'bouquet_sunflowers');
    const created = (
      await call('POST', '/checkout-sessions', {
        line_items: [
          { item: { id: roses }, quantity: 2 },
          { item: { id: sunflowers }, quantity: 1 },
        ],
        buyer: BUYER,
      })
    ).body;
    const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const update = (fulfillment: unknown) =>
      call('PUT', `/checkout-sessions/${created.id}`, { line_items: lines, buyer: BUYER, fulfillment });
    const method = (await update({ methods: [{ type: 'shipping', destinations: [CHICAGO] }] })).body.fulfillment.methods[0];
    const express = method.groups[0].options.at(-1).id;
    const ready = (
      await update({
        methods: [
          {
            id: method.id,
            type: 'shipping',
            destinations: method.destinations,
            groups: [{ id: method.groups[0].id, selected_option_id: express }],
          },
        ],
      })
    ).body;
    expect(ready.status).toBe('ready_for_complete');
    const totalEntry = ready.totals.find((t: any) => t.type === 'total');
    const total = totalEntry.amount as number;
    const tax = ready.totals.find((t: any) => t.type === 'tax')?.amount as number;
    return { id: created.id as string, total, tax, totalEntry };
  }

  /** The tax inside the prices is shown as the total's lines (issue 45 item 3), as Shopify names it; none when tax is added. */
  function expectIncludedTax(totalEntry: { amount: number; lines?: Array<{ display_text: string; amount: number }> }) {
    if (!taxesIncluded) return expect(totalEntry.lines).toBeUndefined();
    const included = totalEntry.lines!.filter((l) => l.display_text.endsWith('(included)'));
    expect(included.length).toBeGreaterThan(0);
    expect(totalEntry.lines![0]).toEqual({ display_text: 'Before tax', amount: expect.any(Number) });
    expect(totalEntry.lines!.reduce((sum, l) => sum + l.amount, 0)).toBe(totalEntry.amount);
    return included.reduce((sum, l) => sum + l.amount, 0);
  }

  it('handoff: the buyer pays on Shopify the total the agent was quoted', async () => {
    const { id, total, tax, totalEntry } = await readyCheckout(handoff);
    // A tax-inclusive shop adds no tax: no tax entry at all, the included tax in the total's lines.
    expect(tax).toEqual(taxesIncluded ? undefined : expect.any(Number));
    const included = expectIncludedTax(totalEntry);
    const handedOff = (await caller(handoff)('POST', `/checkout-sessions/${id}/complete`, {})).body;
    expect(handedOff.status).toBe('requires_escalation');
    const order = await s.sim.pay(handedOff.continue_url);
    expect(order.totals.total).toBe(total);
    expect(order.totals.tax).toBeGreaterThan(0);
    if (taxesIncluded) expect(order.totals.tax).toBe(included);
  });

  it('gateway_charged: Shopify records a paid order of exactly the charged total', async () => {
    const { id, total, totalEntry } = await readyCheckout(charged);
    const included = expectIncludedTax(totalEntry);
    const completed = (await caller(charged)('POST', `/checkout-sessions/${id}/complete`, pay())).body;
    expect(completed).toMatchObject({ status: 'completed', order: { id: expect.any(String) } });
    const order = s.sim.orders.get(`gid://shopify/Order/${completed.order.id}`)!;
    expect(order.totals.total).toBe(total);
    expect(order.totals.tax).toBeGreaterThan(0);
    // The order as the agent reads it shows the same totals as its checkout did.
    const read = (await caller(charged, { 'x-api-key': API_KEY })('GET', `/orders/${completed.order.id}`)).body;
    const readTotal = read.totals.find((t: any) => t.type === 'total');
    expect(readTotal.amount).toBe(total);
    if (taxesIncluded) {
      expect(order.totals.tax).toBe(included);
      expect(read.totals.map((t: any) => t.type)).not.toContain('tax');
      expect(readTotal.lines).toEqual(totalEntry.lines);
    }
  });
});
