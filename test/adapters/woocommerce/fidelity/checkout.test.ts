/**
 * Fidelity of store_charged against `POST /wc/store/v1/checkout` as WooCommerce runs it
 * (woocommerce/woocommerce plugins/woocommerce/src/StoreApi/Routes/V1/Checkout.php,
 * Utilities/CheckoutTrait.php, Legacy.php; the simulator's store-checkout.ts and payment-page.ts):
 * - Checkout::requires_nonce returns true: the `Nonce` header is needed whatever the Cart-Token,
 *   and every Store API answer carries a fresh one (AbstractCartRoute::add_response_headers);
 * - the status follows the gateway (CheckoutTrait::prepare_item_for_response: success 200,
 *   pending 202, failure 400); a card needing 3-D Secure answers success with a redirect to the
 *   order's payment page while the order stays pending, a bank transfer puts it on hold;
 * - the order exists before the gateway runs: a checkout that fails validation leaves a checkout
 *   draft (announced by order.created), a retry of the same cart pays the same pending or failed
 *   order (DraftOrderTrait::is_valid_draft_order), and the must-use plugin writes the reference
 *   on it in woocommerce_store_api_checkout_update_order_from_request.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WooHttp } from '../../../../adapters/woocommerce/http.js';
import type { WooSimulatorOptions } from '../../../../simulators/woocommerce/server.js';
import { WEBHOOK_SECRET, wooSubject, type WooSubject } from '../harness.js';
import { ordersOf, readyCheckout, storeCharged } from './checkouts.js';
import { loseNextAnswer } from './store-api.js';

let subject: WooSubject | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await subject?.close();
  subject = undefined;
});

async function start(options: { simulator?: WooSimulatorOptions; paymentMethod?: string; now?: () => number } = {}) {
  subject = await wooSubject({
    ...(options.simulator && { simulator: options.simulator }),
    ...(options.now && { now: options.now }),
    settings: { store_charged: { payment_method: options.paymentMethod ?? 'simulated_card' } },
  });
  return subject;
}

describe('the checkout always wants the Nonce header (Checkout::requires_nonce)', () => {
  it('sends the Nonce the cart’s last Store API answer carried, and the store charges the card', async () => {
    const s = await start();
    const ready = await readyCheckout(s);
    const sent = vi.spyOn(WooHttp.prototype, 'store');
    const placed = await s.adapter.placeOrder(storeCharged(ready, 'chk_nonce_1', 'success_token'));
    expect(placed).toMatchObject({ status: 'placed' });
    const checkouts = sent.mock.calls.filter((c) => c[1] === '/checkout');
    expect(checkouts).toHaveLength(1);
    expect(checkouts[0]![2]).toMatchObject({ nonce: ready.quote.handle!.split('#')[1] });
  });

  it('replaces a nonce the store no longer takes (its two 12-hour ticks over) with the one the refusal carries, once', async () => {
    let skew = 0;
    const s = await start({ simulator: { now: () => Date.now() + skew } });
    const ready = await readyCheckout(s);
    skew = 25 * 3_600_000; // the cart (48 h) outlives the nonce (12 to 24 h)
    s.sim.controls.resetCalls();
    const placed = await s.adapter.placeOrder(storeCharged(ready, 'chk_nonce_2', 'success_token'));
    expect(placed).toMatchObject({ status: 'placed' });
    expect(s.sim.controls.calls().filter((c) => c.route === '/wc/store/v1/checkout')).toHaveLength(2);
    expect(ordersOf(s, 'chk_nonce_2').map((o) => o.status)).toEqual(['processing']);
  });
});

describe('what the gateway answered (CheckoutTrait, Legacy::process_legacy_payment)', () => {
  it('3-D Secure: requires_action at the order’s payment page, the order id as store reference; a later card pays it', async () => {
    const s = await start();
    const ready = await readyCheckout(s);
    const challenged = await s.adapter.placeOrder(storeCharged(ready, 'chk_3ds', 'action_token'));
    const [waiting] = ordersOf(s, 'chk_3ds');
    expect(waiting).toMatchObject({ status: 'pending', datePaid: null });
    expect(challenged).toEqual({
      status: 'requires_action',
      continueUrl: `${s.sim.url}/checkout/order-pay/${waiting!.id}/?key=${waiting!.orderKey}`,
      detail: expect.stringMatching(/approve/),
      storeReference: String(waiting!.id),
    });
    expect(await s.adapter.findOrderByReference('chk_3ds', undefined, { storeReference: String(waiting!.id) })).toBeNull();

    const paid = await s.adapter.placeOrder(storeCharged(ready, 'chk_3ds', 'success_token'));
    expect(paid).toMatchObject({ status: 'placed', orderId: String(waiting!.id) });
    expect(ordersOf(s, 'chk_3ds').map((o) => o.status)).toEqual(['processing']);
  });

  it('approved on the store’s page, the order is found by reference and a repeated placement answers it, never paid twice', async () => {
    const s = await start();
    const ready = await readyCheckout(s);
    const challenged = await s.adapter.placeOrder(storeCharged(ready, 'chk_3ds_ok', 'action_token'));
    const { continueUrl } = challenged as { continueUrl: string };
    const approved = await fetch(continueUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'payment_method=simulated_card&token=success_token',
      redirect: 'manual',
    });
    expect(approved.status).toBe(302);
    const [order] = ordersOf(s, 'chk_3ds_ok');
    expect(order!.status).toBe('processing');
    expect(await s.adapter.findOrderByReference('chk_3ds_ok')).toMatchObject({ orderId: String(order!.id) });
    s.sim.controls.resetCalls();
    expect(await s.adapter.placeOrder(storeCharged(ready, 'chk_3ds_ok', 'success_token'))).toMatchObject({
      status: 'placed',
      orderId: String(order!.id),
    });
    expect(s.sim.controls.calls().filter((c) => c.route === '/wc/store/v1/checkout')).toEqual([]);
  });

  it('a challenge run in the browser (Stripe’s #wc-stripe-confirm-pi): the order’s payment page, not the fragment', async () => {
    const s = await start();
    const ready = await readyCheckout(s);
    const challenged = await s.adapter.placeOrder(storeCharged(ready, 'chk_confirm', 'confirm_token'));
    const [waiting] = ordersOf(s, 'chk_confirm');
    expect(challenged).toMatchObject({
      status: 'requires_action',
      continueUrl: `${s.sim.url}/checkout/order-pay/${waiting!.id}/?pay_for_order=true&key=${waiting!.orderKey}`,
      storeReference: String(waiting!.id),
    });
    expect(JSON.stringify(challenged)).not.toMatch(/secret/);
  });

  it('a gateway answering pending with a redirect (202) asks the buyer at that page', async () => {
    const s = await start();
    const ready = await readyCheckout(s);
    const challenged = await s.adapter.placeOrder(storeCharged(ready, 'chk_redirect', 'redirect_pending_token'));
    const [waiting] = ordersOf(s, 'chk_redirect');
    expect(challenged).toMatchObject({
      status: 'requires_action',
      continueUrl: `${s.sim.url}/checkout/order-pay/${waiting!.id}/?key=${waiting!.orderKey}`,
    });
  });

  it('a payment the store still processes (202) is pending, found by reference once the store has it paid', async () => {
    const s = await start();
    const ready = await readyCheckout(s);
    expect(await s.adapter.placeOrder(storeCharged(ready, 'chk_202', 'pending_token'))).toEqual({ status: 'pending' });
    const [order] = ordersOf(s, 'chk_202');
    expect(order!.status).toBe('pending');
    expect(await s.adapter.findOrderByReference('chk_202')).toBeNull();
    s.sim.controls.payOrder(order!.id);
    expect(await s.adapter.findOrderByReference('chk_202')).toMatchObject({ orderId: String(order!.id) });
  });

  it('a payment the store still processes is never sent again: a later placement stays pending while the order waits', async () => {
    let clock = Date.now();
    const s = await start({ now: () => clock });
    const ready = await readyCheckout(s);
    expect(await s.adapter.placeOrder(storeCharged(ready, 'chk_202b', 'pending_token'))).toEqual({ status: 'pending' });
    clock += 10 * 60_000;
    s.sim.controls.resetCalls();
    expect(await s.adapter.placeOrder(storeCharged(ready, 'chk_202b', 'success_token'))).toEqual({ status: 'pending' });
    expect(s.sim.controls.calls().filter((c) => c.route === '/wc/store/v1/checkout')).toEqual([]);
  });

  it('a gateway that puts the order on hold (bank transfer) leaves it pending, not placed', async () => {
    const s = await start({ paymentMethod: 'bacs' });
    const ready = await readyCheckout(s);
    expect(await s.adapter.placeOrder(storeCharged(ready, 'chk_bacs', 'unused'))).toEqual({ status: 'pending' });
    expect(ordersOf(s, 'chk_bacs').map((o) => o.status)).toEqual(['on-hold']);
    expect(await s.adapter.findOrderByReference('chk_bacs')).toBeNull();
  });

  it('a payment method the store does not offer is incomplete (the tenant’s setting), not a declined card', async () => {
    const s = await start({ paymentMethod: 'stripe' });
    const ready = await readyCheckout(s);
    expect(await s.adapter.placeOrder(storeCharged(ready, 'chk_nomethod', 'success_token'))).toMatchObject({
      status: 'rejected',
      reason: 'incomplete',
      detail: expect.stringContaining('stripe is not available'),
    });
  });
});

describe('the order exists before the payment (Checkout::get_route_post_response)', () => {
  it('a checkout that fails validation leaves a checkout draft: no order of the reference, in a webhook or a poll', async () => {
    const s = await start();
    const ready = await readyCheckout(s);
    const since = new Date(Date.now() - 60_000).toISOString();
    const refused = await s.adapter.placeOrder(storeCharged(ready, 'chk_draft', 'success_token', { email: '' }));
    expect(refused).toMatchObject({ status: 'rejected', reason: 'incomplete' });
    const [draft] = [...s.sim.store.orders.values()].filter((o) => o.status === 'checkout-draft');
    expect(draft).toBeDefined();
    expect(await s.adapter.findOrderByReference('chk_draft')).toBeNull();
    const delivery = s.sim.controls.signedDelivery(WEBHOOK_SECRET, 'order.created', draft!.id);
    expect(s.adapter.verifyWebhook(delivery.headers, delivery.rawBody)).toMatchObject({ kind: 'ping' });
    expect((await s.adapter.ordersChangedSince(since)).map((c) => c.orderId)).not.toContain(String(draft!.id));
  });

  it('an answer lost after the store charged: the retry finds that order by the reference written before payment', async () => {
    let clock = Date.now();
    const s = await start({ now: () => clock });
    const ready = await readyCheckout(s);
    loseNextAnswer('store', /^\/checkout$/);
    await expect(s.adapter.placeOrder(storeCharged(ready, 'chk_lost', 'success_token'))).rejects.toThrow(/lost/);
    const [charged] = ordersOf(s, 'chk_lost');
    expect(charged!.status).toBe('processing');
    expect(await s.adapter.findOrderByReference('chk_lost')).toMatchObject({ orderId: String(charged!.id) });
    clock += 3 * 60_000;
    expect(await s.adapter.placeOrder(storeCharged(ready, 'chk_lost', 'success_token'))).toMatchObject({
      status: 'placed',
      orderId: String(charged!.id),
    });
    expect(ordersOf(s, 'chk_lost')).toHaveLength(1);
  });

  it('without the must-use plugin, a challenged order the reference could not be written on is linked by its id all the same', async () => {
    const s = await start({ simulator: { referenceSnippet: false } });
    const ready = await readyCheckout(s);
    // The store takes the checkout, then fails the write of the reference (PUT wc/v3/orders/{id}).
    s.sim.controls.fail({ kind: 'server_error', times: 5, match: /^\/wc\/v3\/orders\/\d+$/ });
    const challenged = await s.adapter.placeOrder(storeCharged(ready, 'chk_untagged', 'action_token'));
    s.sim.controls.clearFaults();
    expect(challenged).toMatchObject({ status: 'requires_action', storeReference: expect.stringMatching(/^\d+$/) });
    const orderId = (challenged as { storeReference: string }).storeReference;
    expect(ordersOf(s, 'chk_untagged')).toEqual([]);
    // The buyer approves on the store's page: the order, without the reference, reports its id as
    // its store reference, in the snapshot and in the poll, and the reference still finds it.
    s.sim.controls.payOrder(orderId);
    const order = (await s.adapter.getOrder(orderId))!;
    expect([order.reference, order.storeReference, order.awaitingPayment]).toEqual([undefined, orderId, undefined]);
    const changes = await s.adapter.ordersChangedSince(new Date(Date.parse(order.createdAt) - 1000).toISOString());
    expect(changes.find((c) => c.orderId === orderId)).toMatchObject({ storeReference: orderId });
    expect(await s.adapter.findOrderByReference('chk_untagged', undefined, { storeReference: orderId })).toMatchObject({ orderId });
  });

  it('without the must-use plugin the reference is written on the order once the checkout answers', async () => {
    const s = await start({ simulator: { referenceSnippet: false } });
    const ready = await readyCheckout(s);
    const placed = await s.adapter.placeOrder(storeCharged(ready, 'chk_noplugin', 'success_token'));
    expect(placed).toMatchObject({ status: 'placed' });
    expect(ordersOf(s, 'chk_noplugin').map((o) => String(o.id))).toEqual([(placed as { orderId: string }).orderId]);
  });
});
