/**
 * A store that charges the buyer's card itself asks the buyer to act first (3-D Secure): the demo
 * store with finishing store_charged and its `action_required_token`. Complete answers
 * requires_escalation with the store's payment page; once the buyer approves there and the store
 * reports the order (webhook or poll), the checkout completes by itself and the platform gets its
 * signed `order created` webhook from the outbox. A repeated complete returns that order and
 * charges nothing again; a failed or abandoned challenge leaves the checkout ready to complete with
 * another instrument.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Adapter, PlaceOrderRequest } from '../../adapters/contract.js';
import { createdEventId } from '../../src/capabilities/order/order-event.js';
import { CHALLENGE_TTL_MS } from '../../src/capabilities/checkout/completion/challenge.js';
import { checkoutGateway, line, pay, STOREFRONT, walkToReady, type CheckoutGateway } from '../capabilities/checkout/checkout-gateway.js';
import { tenantKeyring } from '../helpers/order-gateway.js';
import { platformProfile } from '../helpers/platform.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const WEBHOOK_SECRET = 'demo-store-webhook-secret-for-tests';
const PROFILE = '/profiles/challenge-agent';
const STORE_HANDLER = { id: 'store-card', name: 'dev.proto.payments.store_card', type: 'store' as const, instruments: ['card'] };
const card = (token: string) => pay(token, { handler_id: STORE_HANDLER.id });

/** The demo store charging cards itself; every placement it is asked for is counted. */
async function challengeGateway(receiver: WebhookReceiver, placements: PlaceOrderRequest[], webhookSecret?: string) {
  const counting = (adapter: Adapter): Adapter =>
    Object.assign(Object.create(adapter) as Adapter, {
      placeOrder: (request: PlaceOrderRequest) => (placements.push(request), adapter.placeOrder(request)),
    });
  const gw = await checkoutGateway({
    tenant: { adapter: { type: 'memory', settings: {}, finishing: 'store_charged' }, payment_handlers: [STORE_HANDLER] },
    wrapAdapter: counting,
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

/** A ready checkout completed with the card its issuer challenges. */
async function challenged(gw: CheckoutGateway) {
  const rest = gw.client('rest', PROFILE);
  const { ready } = await walkToReady(rest, [line('bouquet_roses', 2)]);
  const escalated = (await rest.complete(ready.id, card('action_required_token'))).body;
  return { rest, ready, escalated };
}

const backendWebhook = (gw: CheckoutGateway, delivery: { headers: Record<string, string>; body: Buffer }) =>
  gw.app.inject({ method: 'POST', url: '/webhooks/backend', headers: delivery.headers, payload: delivery.body });

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

describe('a payment the store asks the buyer to confirm, reported by the store', () => {
  let gw: CheckoutGateway;
  const placements: PlaceOrderRequest[] = [];
  beforeAll(async () => {
    gw = await challengeGateway(receiver, placements, WEBHOOK_SECRET);
  });
  afterAll(() => gw.close());
  beforeEach(() => {
    receiver.received.length = 0;
    placements.length = 0;
  });

  it("answers requires_escalation with the store's page; approved there, the store's webhook completes it with order created", async () => {
    const { rest, ready, escalated } = await challenged(gw);
    expect(escalated.status).toBe('requires_escalation');
    expect(escalated.continue_url).toMatch(new RegExp(`^${STOREFRONT}/pay/pay_[0-9a-f]+$`));
    expect(escalated.messages.map((m: any) => [m.type, m.code, m.severity])).toEqual([
      ['error', 'buyer_action_required', 'requires_buyer_input'],
    ]);
    expect(escalated.order).toBeUndefined();
    expect((await rest.get(ready.id)).body.status).toBe('requires_escalation');

    const { orderId } = (await gw.demo.confirmPayment(escalated.continue_url, 'approve'))!;
    const created = await backendWebhook(gw, (await gw.demo.webhookFor('order.created', orderId))!);
    expect([created.statusCode, created.json()]).toEqual([200, { status: 'created' }]);

    const completed = (await rest.get(ready.id)).body;
    expect([completed.status, completed.order.id]).toEqual(['completed', orderId]);
    const [webhook] = await receiver.waitFor(1);
    const body = JSON.parse(webhook!.body);
    expect([body.id, body.checkout_id, body.event_id]).toEqual([orderId, ready.id, createdEventId('shop', orderId)]);
    expect(body.line_items.map((l: any) => l.id)).toEqual(ready.line_items.map((l: any) => l.id));

    // The platform completes again: the same order, nothing placed or charged again.
    const repeated = (await rest.complete(ready.id, card('success_token'))).body;
    expect([repeated.messages.map((m: any) => m.code), repeated.order.id]).toEqual([['checkout_completed'], orderId]);
    expect(placements).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });

  it('approved but not reported yet: a complete asks the store first and completes with its order, charging nothing again', async () => {
    const { rest, ready, escalated } = await challenged(gw);
    const { orderId } = (await gw.demo.confirmPayment(escalated.continue_url, 'approve'))!;
    const again = await rest.complete(ready.id, card('success_token'));
    expect([again.body.proto.status, again.body.status, again.body.order.id]).toEqual(['success', 'completed', orderId]);
    expect(placements).toHaveLength(1);
    const [webhook] = await receiver.waitFor(1);
    expect(JSON.parse(webhook!.body).event_id).toBe(createdEventId('shop', orderId));
    // The store's webhook arriving now changes nothing: the order is known.
    expect((await backendWebhook(gw, (await gw.demo.webhookFor('order.created', orderId))!)).json()).toEqual({ status: 'unchanged' });
  });

  it('a failed challenge leaves the checkout ready to complete with another instrument: one order for the checkout', async () => {
    const { rest, ready, escalated } = await challenged(gw);
    expect(await gw.demo.confirmPayment(escalated.continue_url, 'fail')).toBeNull();
    expect((await rest.get(ready.id)).body.status).toBe('requires_escalation');
    const done = (await rest.complete(ready.id, card('success_token'))).body;
    expect(done.status).toBe('completed');
    expect(placements.map((p) => p.payment.mode === 'store_charged' && p.payment.credential.token)).toEqual([
      'action_required_token',
      'success_token',
    ]);
    expect(await gw.demo.findOrderByReference(ready.id)).toEqual({ orderId: done.order.id });
    // The failed page cannot be approved any more.
    await expect(gw.demo.confirmPayment(escalated.continue_url, 'approve')).rejects.toThrow('is not a payment waiting for the buyer');
  });

  it('a challenge the buyer abandons lapses: ready_for_complete again, with a warning saying why', async () => {
    const { rest, ready } = await challenged(gw);
    gw.clock.now += CHALLENGE_TTL_MS;
    const lapsed = (await rest.get(ready.id)).body;
    expect(lapsed.status).toBe('ready_for_complete');
    expect(lapsed.continue_url).toBeUndefined();
    expect(lapsed.messages.map((m: any) => [m.type, m.code])).toEqual([['warning', 'payment_confirmation_expired']]);
    expect((await rest.complete(ready.id, card('success_token'))).body.status).toBe('completed');
  });

  it('a second challenge replaces the first: only the latest page places the order', async () => {
    const { rest, ready, escalated } = await challenged(gw);
    const second = (await rest.complete(ready.id, card('action_required_token'))).body;
    expect(second.status).toBe('requires_escalation');
    expect(second.continue_url).not.toBe(escalated.continue_url);
    await expect(gw.demo.confirmPayment(escalated.continue_url, 'approve')).rejects.toThrow('is not a payment waiting for the buyer');
    const { orderId } = (await gw.demo.confirmPayment(second.continue_url, 'approve'))!;
    await backendWebhook(gw, (await gw.demo.webhookFor('order.created', orderId))!);
    expect((await rest.get(ready.id)).body.order.id).toBe(orderId);
  });
});

describe('a payment the store asks the buyer to confirm, at a store without webhooks', () => {
  let gw: CheckoutGateway;
  const placements: PlaceOrderRequest[] = [];
  beforeAll(async () => {
    gw = await challengeGateway(receiver, placements);
  });
  afterAll(() => gw.close());

  it('the order poll finds the approved order and completes the checkout, with order created', async () => {
    receiver.received.length = 0;
    const { rest, ready, escalated } = await challenged(gw);
    const { orderId } = (await gw.demo.confirmPayment(escalated.continue_url, 'approve'))!;
    await gw.app.orderPolls.drain();
    expect((await rest.get(ready.id)).body.order.id).toBe(orderId);
    const [webhook] = await receiver.waitFor(1);
    expect(JSON.parse(webhook!.body)).toMatchObject({ id: orderId, checkout_id: ready.id });
  });
});
