/**
 * The Shopify walks of issue 26, through the gateway: a checkout finished by handoff (the buyer pays
 * on Shopify's checkout) and one finished gateway_charged (a paid draft order), each on a shop that
 * adds tax and on one whose prices include it. Every time, the order Shopify records totals exactly
 * what the agent was quoted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../../../helpers/gateway.js';
import { pay } from '../../../helpers/sandbox-payment.js';
import { shopifySetup, type ShopifySetup } from '../helpers.js';

const BUYER = { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee' };
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

  beforeAll(async () => {
    s = await shopifySetup({ simulator: { taxesIncluded } });
    handoff = await testGateway({ adapter: s.adapter, tenant: { adapter: { type: 'shopify', settings: {} }, payment_handlers: [] } });
    // The default test tenant's sandbox card handler charges in the gateway.
    charged = await testGateway({
      adapter: s.adapter,
      tenant: { adapter: { type: 'shopify', settings: {}, finishing: 'gateway_charged' } },
    });
  });
  afterAll(async () => {
    await handoff.close();
    await charged.close();
    await s.close();
  });

  const caller = (gw: TestGateway) => async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
    const res = await gw.app.inject({ method, url, headers: gw.headers(), ...(body !== undefined && { payload: JSON.stringify(body) }) });
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
    const total = ready.totals.find((t: any) => t.type === 'total').amount as number;
    const tax = ready.totals.find((t: any) => t.type === 'tax')?.amount as number;
    return { id: created.id as string, total, tax };
  }

  it('handoff: the buyer pays on Shopify the total the agent was quoted', async () => {
    const { id, total, tax } = await readyCheckout(handoff);
    expect(tax).toEqual(taxesIncluded ? 0 : expect.any(Number));
    const handedOff = (await caller(handoff)('POST', `/checkout-sessions/${id}/complete`, {})).body;
    expect(handedOff.status).toBe('requires_escalation');
    const order = await s.sim.pay(handedOff.continue_url);
    expect(order.totals.total).toBe(total);
    expect(order.totals.tax).toBeGreaterThan(0);
  });

  it('gateway_charged: Shopify records a paid order of exactly the charged total', async () => {
    const { id, total } = await readyCheckout(charged);
    const completed = (await caller(charged)('POST', `/checkout-sessions/${id}/complete`, pay())).body;
    expect(completed).toMatchObject({ status: 'completed', order: { id: expect.any(String) } });
    const order = s.sim.orders.get(`gid://shopify/Order/${completed.order.id}`)!;
    expect(order.totals.total).toBe(total);
    expect(order.totals.tax).toBeGreaterThan(0);
  });
});
