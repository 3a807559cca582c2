/**
 * The simulated Store API checkout behaves as WooCommerce's own (src/StoreApi/Routes/V1/Checkout.php,
 * CheckoutTrait, DraftOrderTrait, AbstractCartRoute, Legacy.php, WordPress nonces): the Nonce is
 * required even with a Cart-Token, every answer carries fresh session headers, the payment
 * result decides the HTTP status, and a second checkout of the same cart pays the same order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWooSimulator, type WooSimulator } from '../../simulators/woocommerce/server.js';
import { BILLING, storeApi } from '../helpers/woo-clients.js';

const T0 = Date.parse('2026-03-02T15:00:00Z');
let clock = T0;
let sim: WooSimulator;

beforeAll(async () => {
  sim = await startWooSimulator({ now: () => clock });
});

afterAll(async () => {
  await sim?.close();
});

/** A cart holding `quantity` of a demo product, its Cart-Token and the Nonce its answers carry. */
async function cartWith(demoId: string, quantity = 1) {
  const fresh = await storeApi(sim, '/cart');
  const added = await storeApi(sim, '/cart/add-item', { token: fresh.token, body: { id: sim.controls.idOf(demoId), quantity } });
  expect(added.status).toBe(201);
  return { token: fresh.token, nonce: added.nonce };
}

const pay = (token: string, nonce: string | undefined, card: string, extra: Record<string, unknown> = {}) =>
  storeApi(sim, '/checkout', {
    token,
    ...(nonce !== undefined && { nonce }),
    body: { billing_address: BILLING, payment_method: 'simulated_card', payment_data: [{ key: 'token', value: card }], ...extra },
  });

describe('Store API nonce', () => {
  it('refuses a checkout without the Nonce header even with a valid Cart-Token, and the 401 still carries the headers', async () => {
    const { token } = await cartWith('pot_ceramic');
    const before = sim.store.orders.size;
    const refused = await pay(token, undefined, 'success_token');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'woocommerce_rest_missing_nonce', data: { status: 401 } });
    expect(refused.nonce).toMatch(/^[0-9a-f]{10}$/);
    expect(refused.token).toMatch(/^ey/);
    expect(refused.headers.get('nonce-timestamp')).toBe(String(Math.floor(clock / 1000)));
    expect(refused.headers.get('user-id')).toBe('0');
    expect(sim.store.orders.size).toBe(before); // the nonce is checked before anything else runs
  });

  it('reads only the Nonce header: X-WC-Store-API-Nonce does not count, a wrong nonce is 403', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const legacyHeader = await storeApi(sim, '/checkout', {
      token,
      headers: { 'X-WC-Store-API-Nonce': nonce },
      body: { billing_address: BILLING, payment_method: 'simulated_card' },
    });
    expect(legacyHeader.body.code).toBe('woocommerce_rest_missing_nonce');
    expect((await pay(token, '', 'success_token')).body.code).toBe('woocommerce_rest_missing_nonce');
    expect((await pay(token, 'deadbeef00', 'success_token')).body).toMatchObject({
      code: 'woocommerce_rest_invalid_nonce',
      data: { status: 403 },
    });
  });

  it("takes any guest's nonce (user 0, no session token) and refuses it once its two 12-hour ticks are over", async () => {
    const other = await storeApi(sim, '/cart'); // another guest's answer
    const { token } = await cartWith('pot_ceramic');
    clock = T0 + 11 * 3600_000;
    const stillValid = await storeApi(sim, '/cart/update-customer', {
      nonce: other.nonce,
      body: { billing_address: { city: 'Springfield' } },
    });
    expect(stillValid.status).toBe(200); // a write without a Cart-Token, let through by the nonce
    clock = T0 + 24 * 3600_000 + 1000;
    const expired = await pay(token, other.nonce, 'success_token');
    expect(expired.body.code).toBe('woocommerce_rest_invalid_nonce');
    clock = T0;
  });

  it('lets cart writes through with a valid Cart-Token and no nonce, but not without a token', async () => {
    const withToken = await cartWith('pot_ceramic');
    expect(withToken.token).toMatch(/^ey/);
    const anonymous = await storeApi(sim, '/cart/add-item', { body: { id: sim.controls.idOf('pot_ceramic'), quantity: 1 } });
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'woocommerce_rest_missing_nonce' } });
  });

  it('refuses a checkout without billing_address before the nonce check, without the Store API headers', async () => {
    const { token } = await cartWith('pot_ceramic');
    const missing = await storeApi(sim, '/checkout', { token, body: { payment_method: 'simulated_card' } });
    expect(missing).toMatchObject({ status: 400, body: { code: 'rest_missing_callback_param', data: { params: ['billing_address'] } } });
    expect(missing.headers.get('nonce')).toBeNull();
  });
});

describe('Store API payment results', () => {
  it('answers a paid order 200 with the gateway result as payment_details, empties the cart, and a retry finds it empty', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const paid = await pay(token, nonce, 'success_token');
    expect(paid.status).toBe(200);
    const receivedUrl = `${sim.url}/checkout/order-received/${paid.body.order_id}/?key=${paid.body.order_key}`;
    expect(paid.body).toMatchObject({
      status: 'processing',
      payment_result: {
        payment_status: 'success',
        redirect_url: receivedUrl,
        payment_details: [
          { key: 'result', value: 'success' },
          { key: 'redirect', value: receivedUrl },
        ],
      },
    });
    expect((await storeApi(sim, '/cart', { token })).body.items_count).toBe(0);
    const orders = sim.store.orders.size;
    const retry = await pay(token, paid.nonce, 'success_token');
    expect(retry).toMatchObject({ status: 400, body: { code: 'woocommerce_rest_cart_empty' } });
    expect(sim.store.orders.size).toBe(orders);
  });

  it('sends a card that needs 3-D Secure to the order-pay page with payment_status success while the order stays pending', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const challenged = await pay(token, nonce, 'action_token');
    expect(challenged.status).toBe(200);
    expect(challenged.body).toMatchObject({
      status: 'pending',
      payment_result: {
        payment_status: 'success',
        redirect_url: `${sim.url}/checkout/order-pay/${challenged.body.order_id}/?key=${challenged.body.order_key}`,
      },
    });
    expect(sim.store.orders.get(challenged.body.order_id)!.datePaid).toBeNull();
    expect((await storeApi(sim, '/cart', { token })).body.items_count).toBe(1); // the cart is kept

    // The same cart checked out again pays the same order (DraftOrderTrait: pending, same cart hash).
    const orders = sim.store.orders.size;
    const again = await pay(token, challenged.nonce, 'success_token');
    expect(again.body).toMatchObject({ order_id: challenged.body.order_id, status: 'processing' });
    expect(sim.store.orders.size).toBe(orders);
  });

  it('a card confirmed in the buyer’s browser answers success with a #wc-stripe-confirm-pi fragment, the order pending', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const confirm = await pay(token, nonce, 'confirm_token');
    expect(confirm.status).toBe(200);
    const { order_id: id } = confirm.body;
    expect(confirm.body).toMatchObject({ status: 'pending', payment_result: { payment_status: 'success' } });
    // Stripe's form: #wc-stripe-confirm-pi:{order_id}:{client_secret}:{nonce}, no page of its own.
    expect(confirm.body.payment_result.redirect_url).toMatch(new RegExp(`^#wc-stripe-confirm-pi:${id}:pi_\\w+_secret_\\w+:[0-9a-f]+$`));
    expect(sim.store.orders.get(id)!.datePaid).toBeNull();
    expect((await storeApi(sim, '/cart', { token })).body.items_count).toBe(1);
  });

  it('a gateway answering `pending` with a redirect keeps both (Legacy::process_legacy_payment): 202, the order pending', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const redirected = await pay(token, nonce, 'redirect_pending_token');
    expect(redirected.status).toBe(202);
    const { order_id: id, order_key: key } = redirected.body;
    expect(redirected.body).toMatchObject({
      status: 'pending',
      payment_result: { payment_status: 'pending', redirect_url: `${sim.url}/checkout/order-pay/${id}/?key=${key}` },
    });
    expect((await storeApi(sim, '/cart', { token })).body.items_count).toBe(1);
  });

  it('answers a gateway result of pending with 202', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const pending = await pay(token, nonce, 'pending_token');
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ status: 'pending', payment_result: { payment_status: 'pending', redirect_url: '' } });
  });

  it('fails the order on a declined card and pays that same order on the retry; a changed cart gets a new order', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const declined = await pay(token, nonce, 'fail_token');
    expect(declined).toMatchObject({ status: 400, body: { code: 'woocommerce_rest_checkout_process_payment_error' } });
    const failed = [...sim.store.orders.values()].at(-1)!;
    expect(failed.status).toBe('failed');
    const retried = await pay(token, declined.nonce, 'success_token');
    expect(retried.body).toMatchObject({ order_id: failed.id, status: 'processing' });

    const second = await cartWith('pot_ceramic');
    const firstTry = await pay(second.token, second.nonce, 'fail_token');
    const failedAgain = [...sim.store.orders.values()].at(-1)!;
    await storeApi(sim, '/cart/add-item', { token: second.token, body: { id: sim.controls.idOf('bouquet_roses'), quantity: 1 } });
    const changed = await pay(second.token, firstTry.nonce, 'success_token');
    expect(changed.status).toBe(200);
    expect(changed.body.order_id).not.toBe(failedAgain.id);
    expect(failedAgain.status).toBe('failed');
    expect(sim.store.orders.get(changed.body.order_id)!.lines).toHaveLength(2);
  });

  it('leaves a checkout draft behind when validation fails after the order is made, and the next checkout reuses it', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const noEmail = await pay(token, nonce, 'success_token', { billing_address: { ...BILLING, email: '' } });
    expect(noEmail).toMatchObject({ status: 400, body: { code: 'woocommerce_rest_missing_email_address' } });
    const draft = [...sim.store.orders.values()].at(-1)!;
    expect(draft.status).toBe('checkout-draft');
    const paid = await pay(token, noEmail.nonce, 'success_token');
    expect(paid.body.order_id).toBe(draft.id);
  });

  it('names the unavailable payment method and refuses a missing one', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const unknown = await pay(token, nonce, 'x', { payment_method: 'stripe' });
    expect(unknown.body).toMatchObject({
      code: 'woocommerce_rest_checkout_payment_method_disabled',
      message: 'stripe is not available for this order—please choose a different payment method',
    });
    const none = await pay(token, nonce, 'x', { payment_method: '' });
    expect(none.body.code).toBe('woocommerce_rest_checkout_missing_payment_method');
  });
});

describe('stock held by placed orders', () => {
  it('holds the stock of an unpaid order for woocommerce_hold_stock_minutes, then lets another cart have it', async () => {
    const tulips = sim.controls.idOf('bouquet_tulips');
    sim.controls.setStock(tulips, 1);
    const { token, nonce } = await cartWith('bouquet_tulips');
    expect((await pay(token, nonce, 'action_token')).body.status).toBe('pending');

    const other = await storeApi(sim, '/cart');
    const refused = await storeApi(sim, '/cart/add-item', { token: other.token, body: { id: tulips, quantity: 1 } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'woocommerce_rest_product_partially_out_of_stock' } });
    expect(refused.body.message).toContain('(0 remaining)');

    clock = T0 + 61 * 60_000;
    const later = await storeApi(sim, '/cart/add-item', { token: other.token, body: { id: tulips, quantity: 1 } });
    expect(later.status).toBe(201);
    clock = T0;
  });
});

describe('Store API batch', () => {
  it('answers 207 with the nonce on the batch itself and none of a Cart-Token; a checkout inside needs its own Nonce', async () => {
    const { token, nonce } = await cartWith('pot_ceramic');
    const batch = await storeApi(sim, '/batch', {
      token,
      nonce,
      body: {
        requests: [
          { path: '/wc/store/v1/cart/update-customer', body: { billing_address: BILLING }, headers: { 'Cart-Token': token } },
          {
            path: '/wc/store/v1/checkout',
            body: { billing_address: BILLING, payment_method: 'simulated_card' },
            headers: { 'Cart-Token': token },
          },
        ],
      },
    });
    expect(batch.status).toBe(207);
    expect(batch.nonce).toMatch(/^[0-9a-f]{10}$/);
    expect(batch.headers.get('x-wc-store-api-nonce')).toBe(batch.nonce);
    expect(batch.headers.get('cart-token')).toBeNull();
    const [customer, checkout] = batch.body.responses;
    expect(customer.status).toBe(200);
    expect(customer.headers['Cart-Token']).toMatch(/^ey/);
    expect(checkout).toMatchObject({ status: 401, body: { code: 'woocommerce_rest_missing_nonce' } });
  });

  it('refuses a GET sub-request for the whole batch', async () => {
    const batch = await storeApi(sim, '/batch', { body: { requests: [{ method: 'GET', path: '/wc/store/v1/cart' }] } });
    expect(batch).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
  });
});
