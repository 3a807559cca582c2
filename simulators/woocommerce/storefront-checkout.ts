/**
 * The store's own checkout, reached through a shareable checkout link (WooCommerce 9.9+:
 * `/checkout-link/?products=ID:QTY,ID:QTY&coupon=CODE` fills the visitor's cart and opens the
 * checkout page). The buyer enters the address, the store charges the cheapest rate for it (its
 * default), takes payment and creates the order (`created_via: checkout`). With the reference
 * snippet of docs/adapters/woocommerce.md installed (`referenceSnippet`), a `proto_ref` parameter
 * of the link is kept in the visitor's session and written to the order as `_proto_reference`.
 */
import type { OrderBook } from './orders.js';
import { emptyAddress, emptyBilling, mergeAddress } from './orders.js';
import { escapeHtml, orderPaymentResult } from './payment-page.js';
import type { WooStore } from './store.js';

export function checkoutLinkPage(store: WooStore, query: Record<string, string>, referenceSnippet: boolean): string {
  const items = (query.products ?? '').split(',').flatMap((pair) => {
    const [id, qty] = pair.split(':');
    const found = store.purchasable(Number(id));
    return found ? [`<li>${escapeHtml(found.product.name)} &times; ${Number(qty) || 1}</li>`] : [];
  });
  const hidden = (name: string, value: string | undefined) =>
    value ? `<input type="hidden" name="${name}" value="${escapeHtml(value)}">` : '';
  const field = (name: string) => `<label>${name} <input name="${name}"></label>`;
  return `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><title>Checkout &ndash; Petal &amp; Stem</title></head>
<body class="woocommerce-checkout"><h1>Checkout</h1><ul class="cart">${items.join('')}</ul>
<form method="post" action="/checkout/">
${hidden('products', query.products)}${hidden('coupon', query.coupon)}${referenceSnippet ? hidden('proto_ref', query.proto_ref) : ''}
${['email', 'first_name', 'last_name', 'address_1', 'city', 'state', 'postcode', 'country', 'token'].map(field).join('\n')}
<button type="submit" id="place_order">Place order</button>
</form></body></html>`;
}

export type CheckoutOutcome = { redirect: string } | { error: string };

/** The checkout form posted: the order is created for the cart of the link, at the cheapest rate, and paid. */
export function placeFromCheckout(
  store: WooStore,
  orders: OrderBook,
  form: Record<string, string>,
  referenceSnippet: boolean,
): CheckoutOutcome {
  const lines = (form.products ?? '').split(',').flatMap((pair) => {
    const [id, qty] = pair.split(':');
    const found = store.purchasable(Number(id));
    return found ? [{ productId: found.product.id, variationId: found.variation?.id ?? 0, quantity: Number(qty) || 1, variation: [] }] : [];
  });
  if (lines.length === 0) return { error: 'Your cart is currently empty.' };
  if (!form.email) return { error: 'Billing Email address is a required field.' };
  const address = mergeAddress(emptyAddress(), form);
  const order = orders.create({
    lines,
    couponCodes: form.coupon ? [form.coupon] : [],
    billing: { ...mergeAddress(emptyBilling(), form), email: form.email },
    shipping: address,
    shippingLines: 'from-rates',
    chosenRates: {},
    packagesByClass: false,
    status: 'pending',
    createdVia: 'checkout',
    paymentMethod: 'simulated_card',
    paymentMethodTitle: 'Credit card (simulated gateway)',
    transactionId: '',
    customerNote: '',
    meta: referenceSnippet && form.proto_ref ? [{ key: '_proto_reference', value: form.proto_ref }] : [],
  });
  const gateway = store.gateways.find((g) => g.id === 'simulated_card')!;
  const result = orderPaymentResult(store, orders, order, gateway, [{ key: 'token', value: form.token ?? '' }]);
  return result.declined ? { error: result.declined } : { redirect: result.redirectUrl };
}
