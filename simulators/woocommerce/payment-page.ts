/**
 * The store's payment gateways and its "Pay for order" page
 * (`/checkout/order-pay/{id}/?pay_for_order=true&key={order_key}`, the order's `payment_url`).
 * Both are classic gateways (WC_Payment_Gateway::process_payment), run for the Store API by
 * Legacy::process_legacy_payment (src/StoreApi/Legacy.php), which takes the gateway's `result`
 * as payment_status ('success', 'failure', 'pending', 'error'), its `redirect` as redirect_url,
 * and the whole returned array as payment_details:
 * - `bacs` (direct bank transfer) puts the order on hold until the merchant sees the money,
 *   empties the cart and answers success (includes/gateways/bacs/class-wc-gateway-bacs.php);
 * - `simulated_card` charges the card token passed as `payment_data` `token` (or posted on the
 *   payment page): `success_token` is captured (payment_complete, cart emptied); `action_token`
 *   needs the buyer (3-D Secure): the order stays pending and the gateway answers success with a
 *   redirect to the order's payment page (WC_Order::get_checkout_payment_url( true )), as card
 *   gateways do when the bank asks for a challenge, the cart left as it is; `confirm_token` is
 *   a challenge the gateway runs in the buyer's browser, as WooCommerce Stripe does when the
 *   payment intent `requires_action` without a `redirect_to_url`: `result: success` with the
 *   fragment `#wc-stripe-confirm-pi:{order_id}:{client_secret}:{nonce}` as `redirect`, for its
 *   own script to confirm, the order left pending and the cart kept
 *   (woocommerce/woocommerce-gateway-stripe includes/payment-methods/class-wc-stripe-upe-payment-gateway.php
 *   process_payment); `redirect_pending_token` is a gateway answering `result: pending` with a
 *   `redirect` to the order's payment page (Legacy keeps both: 202 with that redirect_url);
 *   `pending_token` is answered `pending` (the charge is being processed; the order stays
 *   pending) without a redirect; any other token
 *   is declined: the gateway fails the order and throws, which the Store API turns into 400
 *   `woocommerce_rest_checkout_process_payment_error` (CheckoutTrait::process_payment).
 */
import { randomBytes } from 'node:crypto';
import type { PaymentGateway, SimOrder } from './model.js';
import type { OrderBook } from './orders.js';
import { decimal } from './shapes/format.js';
import type { WooStore } from './store.js';
import { text } from '../request-text.js';

export interface PaymentResult {
  status: 'success' | 'failure' | 'pending';
  details: Array<{ key: string; value: string }>;
  redirectUrl: string;
  /** The gateway's sentence when it threw (the card was refused). */
  declined?: string;
  /** The gateway emptied the cart (WC()->cart->empty_cart() once paid or on hold). */
  emptiesCart: boolean;
}

export function orderReceivedUrl(store: WooStore, order: SimOrder): string {
  return `${store.homeUrl()}/checkout/order-received/${order.id}/?key=${order.orderKey}`;
}

/** WC_Order::get_checkout_payment_url( true ): the payment page of the order, as a gateway redirects to it. */
function orderPayUrl(store: WooStore, order: SimOrder): string {
  return `${store.homeUrl()}/checkout/order-pay/${order.id}/?key=${order.orderKey}`;
}

/** Legacy::process_legacy_payment: the gateway's returned array becomes payment_details. */
function answered(status: 'success' | 'pending', redirectUrl: string, emptiesCart: boolean): PaymentResult {
  return {
    status,
    details: [
      { key: 'result', value: status },
      { key: 'redirect', value: redirectUrl },
    ],
    redirectUrl,
    emptiesCart,
  };
}

export function orderPaymentResult(
  store: WooStore,
  orders: OrderBook,
  order: SimOrder,
  gateway: PaymentGateway,
  data: Array<{ key: string; value: unknown }>,
): PaymentResult {
  if (!gateway.charges) {
    orders.setStatus(order, 'on-hold');
    orders.addNote(order, 'Awaiting BACS payment Order status changed from Pending payment to On hold.', false);
    return answered('success', orderReceivedUrl(store, order), true);
  }
  const token = text(data.find((d) => d.key === 'token' || d.key === `wc-${gateway.id}-token`)?.value);
  if (token === 'action_token') {
    orders.addNote(order, 'The bank asked the buyer to authenticate the payment (3-D Secure).', false);
    return answered('success', orderPayUrl(store, order), false);
  }
  if (token === 'confirm_token') {
    const secret = `pi_${randomBytes(8).toString('hex')}_secret_${randomBytes(8).toString('hex')}`;
    return answered('success', `#wc-stripe-confirm-pi:${order.id}:${secret}:${randomBytes(5).toString('hex')}`, false);
  }
  if (token === 'redirect_pending_token') return answered('pending', orderPayUrl(store, order), false);
  if (token === 'pending_token') return answered('pending', '', false);
  if (token !== 'success_token') {
    const declined = token ? 'Your card was declined.' : 'Please enter your card details.';
    orders.addNote(order, `Payment failed: ${declined} Order status changed from Pending payment to Failed.`, false);
    orders.setStatus(order, 'failed');
    return { status: 'failure', details: [], redirectUrl: '', declined, emptiesCart: false };
  }
  orders.markPaid(order, { method: gateway.id, title: gateway.title, transactionId: `ch_sim_${randomBytes(8).toString('hex')}` });
  return answered('success', orderReceivedUrl(store, order), true);
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function paymentPage(store: WooStore, order: SimOrder, notice = ''): string {
  const dp = store.settings.decimals;
  const rows = order.lines
    .map((l) => `<tr><td>${escapeHtml(l.name)} &times; ${l.quantity}</td><td>$${decimal(l.total, dp)}</td></tr>`)
    .join('');
  return `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><title>Pay for order &ndash; Petal &amp; Stem</title></head>
<body class="woocommerce-order-pay">
<h1>Pay for order #${order.id}</h1>
${notice ? `<ul class="woocommerce-error" role="alert"><li>${escapeHtml(notice)}</li></ul>` : ''}
<table class="shop_table">${rows}<tr><th>Total</th><td>$${decimal(order.total, dp)}</td></tr></table>
<form id="order_review" method="post">
<input type="hidden" name="payment_method" value="simulated_card">
<label>Card token <input name="token" value="success_token"></label>
<button type="submit" id="place_order">Pay for order</button>
</form></body></html>`;
}

export function receivedPage(order: SimOrder): string {
  return `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><title>Order received</title></head>
<body class="woocommerce-order-received"><p class="woocommerce-thankyou-order-received">Thank you. Your order has been received.</p>
<ul><li>Order number: <strong>${order.id}</strong></li><li>Status: <strong>${order.status}</strong></li></ul></body></html>`;
}
