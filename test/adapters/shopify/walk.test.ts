/**
 * The whole walk through the gateway in front of the Shopify simulator, as an agent drives it:
 * search, a cart with a code, the checkout with delivery options (and Shopify's tax), the handoff
 * to Shopify's checkout, the buyer paying there, the order webhook Shopify sends (the gateway's
 * webhook subscription, registered as a merchant registers it), the platform's signed Order created
 * webhook, then a fulfillment with tracking and a refund reaching the platform the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, CHICAGO, PROFILE, shopifyWalk, type ShopifyWalk } from './walk-gateway.js';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { protocolCaller } from '../../helpers/protocol-client.js';
import { type WebhookReceiver } from '../../helpers/webhook-receiver.js';
import { bodyOf, verifyAsPlatform } from '../../webhooks/platform-side.js';
import { shopifySetup, type ShopifySetup } from './helpers.js';

let s: ShopifySetup;
let gw: TestGateway;
let receiver: WebhookReceiver;
let walk: ShopifyWalk;

beforeAll(async () => {
  walk = await shopifyWalk();
  ({ s, gw, receiver } = walk);
});
afterAll(() => walk.close());

/** Webhooks received until the last one's order satisfies `done`. */
async function receiverUntil(done: (body: ReturnType<typeof bodyOf>) => boolean) {
  for (let count = receiver.received.length; ; count++) {
    const received = await receiver.waitFor(count);
    if (received.length && done(bodyOf(received.at(-1)!))) return received;
  }
}

describe('a Shopify store through the gateway', () => {
  it('search, cart with a code, checkout with delivery options, handoff, paid on Shopify, order webhooks, tracking, refund', async () => {
    const { rest } = protocolCaller(gw, () => undefined, PROFILE);

    const found = await rest('POST', '/catalog/search', { query: 'roses' });
    const roses = found.body.products.find((p: any) => p.title === 'Bouquet of Red Roses');
    const variant = roses.variants[0].id;
    expect(variant).toMatch(/^gid:\/\/shopify\/ProductVariant\/\d+$/);

    const cart = (await rest('POST', '/carts', { line_items: [{ item: { id: variant }, quantity: 2 }], discounts: { codes: ['10OFF'] } }))
      .body;
    expect(cart.totals).toEqual([
      { type: 'subtotal', amount: 7000 },
      { type: 'items_discount', amount: -700 },
      { type: 'total', amount: 6300 },
    ]);

    const created = (await rest('POST', '/checkout-sessions', { cart_id: cart.id })).body;
    const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
    const update = (fulfillment: unknown) =>
      rest('PUT', `/checkout-sessions/${created.id}`, { line_items: lines, buyer: BUYER, discounts: { codes: ['10OFF'] }, fulfillment });
    const asked = (await update({ methods: [{ type: 'shipping', destinations: [CHICAGO] }] })).body;
    const method = asked.fulfillment.methods[0];
    expect(method.groups[0].options.map((o: any) => o.title)).toEqual(['Standard Shipping', 'Express Shipping (US)']);
    const express = method.groups[0].options[1].id;
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
    // 70.00 - 7.00 (10OFF) + 15.00 express - 15.00 (free shipping on roses) + Illinois tax 6.25% of 63.00
    expect(ready.totals).toEqual([
      { type: 'subtotal', amount: 7000 },
      { type: 'items_discount', amount: -700 },
      { type: 'discount', amount: -1500 },
      { type: 'fulfillment', amount: 1500 },
      { type: 'tax', amount: 394 },
      { type: 'total', amount: 6694 },
    ]);

    const handedOff = (await rest('POST', `/checkout-sessions/${created.id}/complete`, {})).body;
    expect(handedOff.status).toBe('requires_escalation');
    expect(handedOff.continue_url).toMatch(new RegExp(`^${s.sim.url}/cart/c/`));

    // The buyer pays on Shopify's checkout; Shopify sends orders/create (the gateway's topic) and
    // orders/paid (not subscribed: orders/updated reports a later payment).
    const order = await s.sim.pay(handedOff.continue_url);
    const announced = s.sim.webhooks.deliveries.find((d) => d.topic === 'orders/create')!;
    expect(announced.results).toEqual([{ uri: expect.stringMatching(/\/webhooks\/backend$/), status: 200 }]);
    const orderId = order.id.split('/').at(-1)!;
    const [orderCreated] = await receiver.waitFor(1);
    expect(bodyOf(orderCreated!)).toMatchObject({ id: orderId, checkout_id: created.id });
    await expect(verifyAsPlatform(gw, receiver, orderCreated!, Date.now)).resolves.toEqual([expect.objectContaining({ label: 'sig1' })]);
    const completed = (await rest('GET', `/checkout-sessions/${created.id}`, undefined)).body;
    expect(completed).toMatchObject({ status: 'completed', order: { id: orderId } });
    expect(bodyOf(orderCreated!).line_items.map((l: any) => [l.id, l.quantity])).toEqual([
      [lines[0].id, { original: 2, total: 2, fulfilled: 0 }],
    ]);

    // The merchant ships with tracking, the carrier reports, then one bouquet is refunded:
    // each reaches the platform as an Order updated webhook with the order read afresh.
    const { fulfillment } = await s.sim.orders.fulfill(order.id, {
      tracking: { company: 'UPS', number: '1Z999AA10123456784', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' },
    });
    await s.sim.orders.fulfillmentEvent(order.id, fulfillment.id, 'IN_TRANSIT');
    await s.sim.orders.refund(order.id, { lines: [{ lineItemId: order.lines[0]!.id, quantity: 1 }] });
    const latest = bodyOf((await receiverUntil((body) => (body.adjustments ?? []).length > 0)).at(-1)!) as any;
    expect(latest.id).toBe(orderId);
    expect(latest.fulfillment.events.map((e: any) => [e.type, e.tracking_number, e.carrier])).toEqual([
      ['shipped', '1Z999AA10123456784', 'UPS'],
      ['in_transit', '1Z999AA10123456784', 'UPS'],
    ]);
    expect(latest.adjustments).toEqual([
      expect.objectContaining({
        type: 'refund',
        status: 'completed',
        line_items: [{ id: lines[0].id, quantity: -1 }],
        // One bouquet after 10OFF (31.50) with its Illinois tax (1.97): Shopify refunds a line with the tax on it.
        totals: [{ type: 'total', amount: -3347 }],
      }),
    ]);
    expect(latest.line_items[0].quantity).toEqual({ original: 2, total: 1, fulfilled: 2 });
  });
});

describe('a Shopify store that is down', () => {
  it("answers 503 backend_unavailable, never a 500, and says nothing of the shop's tokens", async () => {
    const down = await shopifySetup();
    const gateway = await testGateway({
      adapter: down.adapter,
      tenant: { adapter: { type: 'shopify', settings: {} }, payment_handlers: [] },
    });
    try {
      await down.close();
      const { rest } = protocolCaller(gateway, () => undefined);
      const reply = await rest('POST', '/catalog/search', { query: 'roses' });
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ code: 'backend_unavailable' });
      expect(JSON.stringify(reply.body) + gateway.rawLogs.join('\n')).not.toContain(down.sim.credentials.storefrontToken);
    } finally {
      await gateway.close();
    }
  });
});
