/**
 * The store's hosted checkout page, where a buyer handed off by the gateway pays on the store
 * itself. The page shows the cart and a card form; paying places the order (carrying the
 * gateway's reference) and the store announces it with its `order.created` webhook.
 */
import type { CartRecord } from './carts.js';
import { decimal } from './views.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  const head = `<meta charset="utf-8"><title>${escape(title)}</title>`;
  return `<!doctype html><html lang="en"><head>${head}</head><body><main>${body}</main></body></html>`;
}

export function checkoutPage(cart: CartRecord, action: string): string {
  const q = cart.quote;
  const rows = q.lines
    .map((l) => `<li>${l.quantity} × ${escape(l.title)} — ${decimal(l.subtotal, q.currency)} ${q.currency}</li>`)
    .join('');
  return page(
    'Checkout — Petal & Stem',
    `<h1>Checkout</h1><ul>${rows}</ul><p>Total: <strong>${decimal(q.totals.total, q.currency)} ${q.currency}</strong></p>
<form method="post" action="${escape(action)}">
<label>Email <input name="email" type="email" required></label>
<fieldset><legend>Deliver to</legend><input name="line1" placeholder="Street"> <input name="city" placeholder="City">
<input name="state" placeholder="State"> <input name="zip" placeholder="ZIP">
<input name="country" placeholder="Country" value="US"></fieldset>
<label>Card <input name="card_token" value="success_token" required></label>
<button type="submit">Pay now</button></form>`,
  );
}

export function thanksPage(orderId: string): string {
  return page(
    'Thank you — Petal & Stem',
    `<h1>Thank you!</h1><p>Your order <strong id="order">#${escape(orderId)}</strong> is placed.</p>`,
  );
}

export function problemPage(message: string): string {
  return page('Checkout — Petal & Stem', `<h1>We could not take your order</h1><p id="problem">${escape(message)}</p>`);
}
