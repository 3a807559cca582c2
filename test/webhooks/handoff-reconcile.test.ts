/**
 * Checkouts handed off to the store's checkout page (finishing mode handoff), and the order the
 * buyer then places there: a verified backend webhook (or, for a store without webhooks, the
 * order poll) names the checkout reference, so the gateway creates the order record, completes
 * the checkout and sends the platform its signed `order created` webhook; later events send
 * `order updated`. Deliveries are deduplicated; a store's ping is acknowledged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdEventId } from '../../src/capabilities/order/order-event.js';
import { checkoutGateway, line, walkToReady, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import { tenantKeyring } from '../helpers/order-gateway.js';
import { platformProfile } from '../helpers/platform.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const WEBHOOK_SECRET = 'demo-store-webhook-secret-for-tests';
const PROFILE = '/profiles/handoff-agent';
const ADDRESS = {
  firstName: 'Ann',
  lastName: 'Lee',
  streetAddress: '123 Main St',
  locality: 'Chicago',
  region: 'IL',
  country: 'US',
  postalCode: '60601',
};
const BUYER = { email: 'ann@example.com' };

async function handoffGateway(receiver: WebhookReceiver, webhookSecret?: string): Promise<CheckoutGateway> {
  const gw = await checkoutGateway({
    tenant: { adapter: { type: 'memory', settings: {}, finishing: 'handoff' }, payment_handlers: [] },
    ...(webhookSecret && { webhookSecret }),
    gateway: { webhooks: { pollMs: 5 }, keyring: await tenantKeyring() },
  });
  const profile = platformProfile();
  profile.proto.capabilities['dev.proto.shopping.order'] = [
    { version: '2026-04-08', config: { webhook_url: receiver.url() } } as { version: string },
  ];
  gw.platform.serve(PROFILE, profile);
  return gw;
}

/** Walks a checkout to ready and completes it: the answer hands the buyer to the store. */
async function handedOff(gw: CheckoutGateway) {
  const rest = gw.client('rest', PROFILE);
  const { ready } = await walkToReady(rest, [line('bouquet_roses', 2)]);
  const escalated = (await rest.complete(ready.id, {})).body;
  return { rest, ready, escalated };
}

const backendWebhook = (gw: CheckoutGateway, delivery: { headers: Record<string, string>; body: Buffer }) =>
  gw.app.inject({ method: 'POST', url: '/webhooks/backend', headers: delivery.headers, payload: delivery.body });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('a handed-off checkout paid on the store, reported by a backend webhook', () => {
  let gw: CheckoutGateway;
  beforeAll(async () => {
    gw = await handoffGateway(receiver, WEBHOOK_SECRET);
  });
  afterAll(() => gw.close());

  it('complete hands the buyer to the store page carrying the reference; the order reported later completes the checkout', async () => {
    const { rest, ready, escalated } = await handedOff(gw);
    expect([escalated.status, escalated.messages[0].code]).toEqual(['requires_escalation', 'buyer_action_required']);
    expect(escalated.continue_url).toMatch(new RegExp(`^https://flowers\\.example/store/cart/bouquet_roses:2\\?ref=${ready.id}$`));
    expect(receiver.received).toHaveLength(0);

    const { orderId } = await gw.demo.purchase(escalated.continue_url, ADDRESS, BUYER);
    const created = await backendWebhook(gw, (await gw.demo.webhookFor('order.created', orderId))!);
    expect([created.statusCode, created.json()]).toEqual([200, { status: 'created' }]);

    const completed = (await rest.get(ready.id)).body;
    expect([completed.status, completed.order.id]).toEqual(['completed', orderId]);
    expect(completed.order.permalink_url).toMatch(/^https?:\/\//);
    const [webhook] = await receiver.waitFor(1);
    const body = JSON.parse(webhook!.body);
    expect([body.id, body.checkout_id, body.event_id]).toEqual([orderId, ready.id, createdEventId('shop', orderId)]);
    expect((await gw.client('rest', PROFILE).complete(ready.id, {})).body.messages[0].code).toBe('checkout_completed');
  });

  it('a checkout the store completed refuses an update before anyone read it, and shows the order at the next get', async () => {
    receiver.received.length = 0;
    const { rest, ready, escalated } = await handedOff(gw);
    const { orderId } = await gw.demo.purchase(escalated.continue_url, ADDRESS, BUYER);
    await backendWebhook(gw, (await gw.demo.webhookFor('order.created', orderId))!);
    const refused = await rest.update(ready.id, { line_items: [line('bouquet_roses', 1)] });
    expect([refused.status, refused.body.messages.map((m: { code: string }) => m.code)]).toEqual([200, ['checkout_completed']]);
    const completed = (await rest.get(ready.id)).body;
    expect([completed.status, completed.order.id]).toEqual(['completed', orderId]);
    await receiver.waitFor(1);
  });

  it('a redelivered event is processed once; a later change is an order updated webhook', async () => {
    receiver.received.length = 0;
    const { escalated } = await handedOff(gw);
    const { orderId } = await gw.demo.purchase(escalated.continue_url, ADDRESS, BUYER);
    const delivery = (await gw.demo.webhookFor('order.created', orderId))!;
    expect((await backendWebhook(gw, delivery)).json()).toEqual({ status: 'created' });
    expect((await backendWebhook(gw, delivery)).json()).toEqual({ status: 'duplicate' });
    await receiver.waitFor(1);

    await gw.demo.simulate(orderId, { type: 'ship', trackingNumber: '1Z999', carrier: 'UPS' });
    expect((await backendWebhook(gw, (await gw.demo.webhookFor('order.updated', orderId))!)).json()).toEqual({ status: 'queued' });
    const [, updated] = await receiver.waitFor(2);
    const order = JSON.parse(updated!.body);
    expect(order.event_id).not.toBe(createdEventId('shop', orderId));
    expect(order.fulfillment.events.map((e: any) => [e.type, e.tracking_number])).toEqual([['shipped', '1Z999']]);
  });

  it('acknowledges a verified ping and refuses what does not verify', async () => {
    const ping = (await gw.demo.webhookFor('ping'))!;
    expect([(await backendWebhook(gw, ping)).statusCode, (await backendWebhook(gw, ping)).json()]).toEqual([200, { status: 'ping' }]);
    const forged = { headers: { ...ping.headers, 'x-demo-webhook-signature': 'AAAA' }, body: ping.body };
    expect((await backendWebhook(gw, forged)).statusCode).toBe(401);
  });

  it('an order of the store that names no handed-off checkout is acknowledged and ignored', async () => {
    const { escalated } = await handedOff(gw);
    const elsewhere = escalated.continue_url.replace(/ref=[^&]+/, 'ref=chk_never_handed_off');
    const { orderId } = await gw.demo.purchase(elsewhere, ADDRESS, BUYER);
    expect((await backendWebhook(gw, (await gw.demo.webhookFor('order.created', orderId))!)).json()).toEqual({ status: 'ignored' });
  });
});

describe('a store without webhooks: the order poll', () => {
  let gw: CheckoutGateway;
  beforeAll(async () => {
    gw = await handoffGateway(receiver);
  });
  afterAll(() => gw.close());

  it('finds the handed-off order among the changed orders and completes the checkout, once', async () => {
    receiver.received.length = 0;
    const { rest, ready, escalated } = await handedOff(gw);
    const { orderId } = await gw.demo.purchase(escalated.continue_url, ADDRESS, BUYER);
    expect((await rest.get(ready.id)).body.status).toBe('requires_escalation');

    await gw.app.orderPolls.drain();
    expect((await rest.get(ready.id)).body.order.id).toBe(orderId);
    await receiver.waitFor(1);

    // The next slot sees only what changed since: the shipment, as one order updated webhook.
    await gw.demo.simulate(orderId, { type: 'ship', trackingNumber: '1Z111', carrier: 'UPS' });
    gw.clock.now += 60_000;
    await gw.app.orderPolls.drain();
    const [, updated] = await receiver.waitFor(2);
    expect(JSON.parse(updated!.body).fulfillment.events.map((e: any) => e.tracking_number)).toEqual(['1Z111']);
    gw.clock.now += 60_000;
    await gw.app.orderPolls.drain();
    expect(receiver.received).toHaveLength(2);
  });
});
