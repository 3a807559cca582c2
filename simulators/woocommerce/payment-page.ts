/**
 * The store's payment gateways and its "Pay for order" page
 * (`/checkout/order-pay/{id}/?pay_for_order=true&key={order_key}`, the order's `payment_url`):
 * - `simulated_card` charges a card token passed as `payment_data` `token` (Store API checkout)
 *   or posted on the payment page: `success_token` is captured, `fail_token` declined;
 * - `bacs` (direct bank transfer) puts the order on hold until the merchant sees the money.
 * Paying on the page is how a handed-off buyer completes the purchase on the store.
 */
import { randomBytes } from 'node:crypto';
import type { PaymentGateway, SimOrder } from './model.js';
import type { OrderBook } from './orders.js';
import { decimal } from './shapes/format.js';
import type { WooStore } from './store.js';
import { text } from '../request-text.js';

export interface PaymentResult {
  status: 'success' | 'failure';
  details: Array<{ key: string; value: string }>;
  redirectUrl: string;
  /** The gateway's sentence when the card was refused. */
  declined?: string;
}

export function orderReceivedUrl(store: WooStore, order: SimOrder): string {
  return `${store.homeUrl()}/checkout/order-received/${order.id}/?key=${order.orderKey}`;
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
    return { status: 'success', details: [], redirectUrl: orderReceivedUrl(store, order) };
  }
  const token = text(data.find((d) => d.key === 'token' || d.key === `wc-${gateway.id}-token`)?.value);
  if (token !== 'success_token') {
    const declined = token ? 'Your card was declined.' : 'Please enter your card details.';
    orders.addNote(order, `Payment failed: ${declined} Order status changed from Pending payment to Failed.`, false);
    orders.setStatus(order, 'failed');
    return { status: 'failure', details: [], redirectUrl: '', declined };
  }
  orders.markPaid(order, { method: gateway.id, title: gateway.title, transactionId: `ch_sim_${randomBytes(8).toString('hex')}` });
  return {
    status: 'success',
    details: [{ key: 'transaction_id', value: order.transactionId }],
    redirectUrl: orderReceivedUrl(store, order),
  };
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
