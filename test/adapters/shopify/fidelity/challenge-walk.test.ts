/**
 * The challenge walk on Shopify (issue 45 item 1), through the gateway: Shopify's API charges no
 * buyer credential (the Admin API records payments, `draftOrderComplete`; `orderCreateMandatePayment`
 * charges only a mandate the buyer gave on Shopify's checkout before), so a payment the buyer must
 * confirm (3-D Secure, an offsite provider) happens on Shopify's own checkout: the handoff is the
 * escalation. The checkout answers `requires_escalation` with the cart's `checkoutUrl`; a failed
 * challenge places no order and leaves the cart as it was (simulators/shopify/checkout.ts), so the
 * checkout waits on the same page; the buyer passes it on a second try, Shopify sends orders/create,
 * and the checkout completes by itself with the platform's Order created webhook, its lines under
 * the checkout's line ids (item 4). An order that lost the reference attribute on the way is still
 * linked by the cart it came from (item 2, `Order.cartToken`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUYER, CHICAGO, PROFILE, shopifyWalk, type ShopifyWalk } from '../walk-gateway.js';
import { type TestGateway } from '../../../helpers/gateway.js';
import { protocolCaller } from '../../../helpers/protocol-client.js';
import { type WebhookReceiver } from '../../../helpers/webhook-receiver.js';
import { bodyOf } from '../../../webhooks/platform-side.js';
import { type ShopifySetup } from '../helpers.js';

let s: ShopifySetup;
let gw: TestGateway;
let receiver: WebhookReceiver;
let walk: ShopifyWalk;

beforeAll(async () => {
  walk = await shopifyWalk();
  ({ s, gw, receiver } = walk);
});
afterAll(() => walk.close());

const rest = () => protocolCaller(gw, () => undefined, PROFILE).rest;

/** A ready checkout of two rose bouquets and a pot to Chicago, handed off: its id, line ids and the Shopify page. */
async function handedOffCheckout() {
  const call = rest();
  const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
  const pot = s.sim.shop.ids.gid('ProductVariant', 'pot_ceramic');
  const created = (
    await call('POST', '/checkout-sessions', {
      line_items: [
        { item: { id: roses }, quantity: 2 },
        { item: { id: pot }, quantity: 1 },
      ],
      buyer: BUYER,
    })
  ).body;
  const lines = created.line_items.map((l: any) => ({ id: l.id, item: { id: l.item.id }, quantity: l.quantity }));
  const update = (fulfillment: unknown) =>
    call('PUT', `/checkout-sessions/${created.id}`, { line_items: lines, buyer: BUYER, fulfillment });
  const method = (await update({ methods: [{ type: 'shipping', destinations: [CHICAGO] }] })).body.fulfillment.methods[0];
  const ready = (
    await update({
      methods: [
        {
          id: method.id,
          type: 'shipping',
          destinations: method.destinations,
          groups: [{ id: method.groups[0].id, selected_option_id: method.groups[0].options[0].id }],
        },
      ],
    })
  ).body;
  expect(ready.status).toBe('ready_for_complete');
  const handedOff = (await call('POST', `/checkout-sessions/${created.id}/complete`, {})).body;
  expect(handedOff).toMatchObject({
    status: 'requires_escalation',
    continue_url: expect.stringMatching(new RegExp(`^${s.sim.url}/cart/c/`)),
  });
  return { id: created.id as string, lineIds: lines.map((l: any) => l.id as string), url: handedOff.continue_url as string };
}

/** The platform's webhooks until one is the Order created of `orderId`. */
async function orderCreated(orderId: string) {
  for (let count = 1; ; count++) {
    const received = await receiver.waitFor(count);
    const body = bodyOf(received.at(-1)!) as any;
    if (body.id === orderId) return body;
  }
}

describe('Shopify: the buyer confirms the payment on Shopify (3-D Secure)', () => {
  it('a failed challenge keeps the checkout on the same page; the order after a passed one completes it by itself, once', async () => {
    const { id, lineIds, url } = await handedOffCheckout();
    const orders = s.sim.orders.all().length;

    // The card asks for 3-D Secure and the buyer fails it: Shopify places nothing, the cart stays.
    await expect(s.sim.pay(url, { payment: { type: 'card', threeDSecure: 'fail' } })).rejects.toThrow(/3-D Secure/);
    expect(s.sim.orders.all()).toHaveLength(orders);
    const waiting = (await rest()('GET', `/checkout-sessions/${id}`, undefined)).body;
    expect(waiting.status).not.toBe('completed');
    // Asked again, the checkout hands over the same page: the buyer tries again there.
    const again = (await rest()('POST', `/checkout-sessions/${id}/complete`, {})).body;
    expect(again).toMatchObject({ status: 'requires_escalation', continue_url: url });

    // The buyer passes the challenge: Shopify places the order and sends orders/create.
    const order = await s.sim.pay(url, { payment: { type: 'card', threeDSecure: 'pass' } });
    const orderId = order.id.split('/').at(-1)!;
    const announced = await orderCreated(orderId);
    expect(announced).toMatchObject({ id: orderId, checkout_id: id });
    expect(announced.line_items.map((l: any) => l.id)).toEqual(lineIds);
    const completed = (await rest()('GET', `/checkout-sessions/${id}`, undefined)).body;
    expect(completed).toMatchObject({ status: 'completed', order: { id: orderId } });
    // A repeated complete places nothing: the same order, no second one on Shopify.
    const repeated = await rest()('POST', `/checkout-sessions/${id}/complete`, {});
    expect(JSON.stringify(repeated.body)).toContain(orderId);
    expect(s.sim.orders.all()).toHaveLength(orders + 1);
  });

  it('an order that lost the reference attribute is linked by the cart it was placed from', async () => {
    const { id, lineIds, url } = await handedOffCheckout();
    // The cart attribute is gone by the time the buyer pays (a checkout app rewrote the attributes):
    // the order carries no reference, only its cart's token.
    const token = new URL(url).pathname.split('/').at(-1)!;
    const cart = s.sim.carts.byToken(token)!;
    cart.attributes = [];
    const order = await s.sim.pay(url, { payment: { type: 'card', threeDSecure: 'pass' } });
    expect(order.attributes).toEqual([]);
    const orderId = order.id.split('/').at(-1)!;
    const announced = await orderCreated(orderId);
    expect(announced).toMatchObject({ id: orderId, checkout_id: id });
    expect(announced.line_items.map((l: any) => l.id)).toEqual(lineIds);
    expect((await rest()('GET', `/checkout-sessions/${id}`, undefined)).body).toMatchObject({
      status: 'completed',
      order: { id: orderId },
    });
  });
});
