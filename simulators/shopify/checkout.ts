/**
 * The hosted checkout behind a cart's `checkoutUrl`: a page showing the cart, and "pay", which
 * completes it as Shopify's checkout would: the address and cheapest rate when the cart has none,
 * tax for the address, an order carrying the cart attributes (as note attributes) and the line
 * attributes, the orders/create webhook, and the cart gone.
 */
import { fromMinorUnits } from '../../adapters/kit/money.js';
import type { DeliveryAddressInput } from './addresses.js';
import { optionHandle, type Carts } from './carts.js';
import { OrderActionError, type OrderRecord, type Orders } from './orders.js';

export interface PayInput {
  email?: string;
  shippingAddress?: DeliveryAddressInput;
}

/** The address a test buyer types when the cart has none (Chicago, so Illinois tax applies). */
export const DEFAULT_BUYER_ADDRESS: DeliveryAddressInput = {
  firstName: 'Test',
  lastName: 'Buyer',
  address1: '233 S Wacker Dr',
  city: 'Chicago',
  provinceCode: 'IL',
  countryCode: 'US',
  zip: '60606',
};

export async function payCheckout(carts: Carts, orders: Orders, token: string, input: PayInput = {}): Promise<OrderRecord> {
  const cart = carts.byToken(token);
  if (!cart) throw new OrderActionError('This checkout is no longer available.');
  if (cart.lines.length === 0) throw new OrderActionError('Your cart is empty.');
  if (carts.stockWarnings(cart).length) throw new OrderActionError('Some items in your cart are sold out.');
  if (input.shippingAddress || !carts.selectedAddress(cart)) {
    for (const a of cart.addresses) a.selected = false;
    cart.addresses.push({
      id: `checkout-${cart.token}`,
      address: input.shippingAddress ?? DEFAULT_BUYER_ADDRESS,
      selected: true,
      oneTimeUse: true,
    });
    cart.selected.clear();
  }
  let priced = carts.price(cart);
  const group = priced.quote.fulfillment?.[0]?.groups[0];
  if (group && priced.groupId && !group.selectedOptionId) {
    const cheapest = group.options[0];
    if (!cheapest) throw new OrderActionError(group.unavailableReason ?? 'No shipping rate reaches this address.');
    cart.selected.set(priced.groupId, optionHandle(cheapest.id));
    priced = carts.price(cart);
  }
  const order = await orders.create({
    quote: priced.quote,
    email: input.email ?? cart.buyer.email ?? 'buyer@example.com',
    sourceName: 'web',
    tags: [],
    attributes: cart.attributes,
    lineAttributes: new Map(cart.lines.map((l) => [l.id, l.attributes])),
    shippingAddress: carts.selectedAddress(cart)?.address ?? null,
  });
  carts.remove(cart);
  return order;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A minimal checkout page, so a person trying `npm run demo:shopify` can pay in the browser. */
export function checkoutPage(carts: Carts, token: string): string | undefined {
  const cart = carts.byToken(token);
  if (!cart) return undefined;
  const { quote } = carts.price(cart);
  const amount = (n: number) => `${fromMinorUnits(n, quote.currency)} ${quote.currency}`;
  const rows = quote.lines.map((l) => {
    const title = `${escape(l.title)}${l.variantTitle ? ` (${escape(l.variantTitle)})` : ''}`;
    return `<tr><td>${title}</td><td>${l.quantity}</td><td>${amount(l.subtotal)}</td></tr>`;
  });
  const discounts = amount(quote.totals.itemsDiscount + quote.totals.discount);
  const email = escape(cart.buyer.email ?? '');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Checkout - Petal &amp; Stem (simulated Shopify)</title></head>
<body><h1>Checkout</h1><p>Simulated Shopify checkout: no money moves.</p>
<table>${rows.join('')}</table><p>Subtotal ${amount(quote.totals.subtotal)}, discounts ${discounts}</p>
<form method="post" action="/cart/c/${escape(token)}/pay"><label>Email <input name="email" type="email" value="${email}"></label>
<button type="submit">Pay now</button></form></body></html>`;
}
