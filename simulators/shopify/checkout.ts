/**
 * The hosted checkout behind a cart's `checkoutUrl`: a page showing the cart, and "pay", which
 * completes it as Shopify's checkout would: the address and cheapest rate when the cart has none,
 * or local pickup at the location the cart's delivery preference names (`CartDeliveryPreference`:
 * "Preferences are used to prefill fields ... at checkout ... not synced back to the cart if they
 * are overwritten"), tax for the destination, an order carrying the cart attributes (as note
 * attributes) and the line attributes, the orders/create webhook, and the cart gone.
 *
 * How the buyer pays decides the order's payment (payments.ts): a card through Shopify Payments
 * (PAID; AUTHORIZED when the shop captures manually), after a 3-D Secure challenge when the card
 * asks for one (a failed challenge places no order and leaves the cart as it was); an offsite
 * provider the buyer returns from (paid, still pending, or cancelled: no order); a manual payment
 * method (bank deposit, cash on delivery, money order: the order is PENDING until marked as paid).
 */
import { fromMinorUnits } from '../../adapters/kit/money.js';
import type { DeliveryAddressInput } from './addresses.js';
import { optionHandle, type CartRecord, type Carts, type PricedCart } from './carts.js';
import { quoteMoney } from './line-money.js';
import { OrderActionError, type OrderRecord, type Orders } from './orders.js';
import { checkoutPayment, type PaymentMethod } from './payments.js';

export interface PayInput {
  email?: string;
  shippingAddress?: DeliveryAddressInput;
  /** How the buyer pays; default a card through Shopify Payments, without a challenge. */
  payment?: PaymentMethod;
  /** The buyer's delivery choice; default the cart's preference (pickup at its location), else shipping. */
  delivery?: 'shipping' | { pickupLocationId: string };
}

/** The address a test buyer types when the cart has none (Chicago, so Illinois tax applies). */
const DEFAULT_BUYER_ADDRESS: DeliveryAddressInput = {
  firstName: 'Test',
  lastName: 'Buyer',
  address1: '233 S Wacker Dr',
  city: 'Chicago',
  provinceCode: 'IL',
  countryCode: 'US',
  zip: '60606',
};

/** The pickup location the buyer completes with: chosen now, else prefilled from the cart's preferences. */
function pickupLocation(carts: Carts, cart: CartRecord, input: PayInput): { locationId: string; name: string } | undefined {
  if (input.delivery === 'shipping') return undefined;
  const { store, shop } = carts.context(cart);
  const preference = cart.buyer.preferences?.delivery;
  const wanted =
    typeof input.delivery === 'object'
      ? input.delivery.pickupLocationId
      : preference?.deliveryMethod?.includes('PICK_UP')
        ? preference.pickupHandle?.[0]
        : undefined;
  if (!wanted) return undefined;
  const id = shop.ids.demoId('Location', wanted) ?? wanted;
  const location = store.data.locations.find((l) => l.location.id === id)?.location;
  return location && { locationId: location.id, name: location.name };
}

/** The cart priced for shipping: the buyer's address, and the cheapest rate when none is selected. */
function shipped(carts: Carts, cart: CartRecord, input: PayInput): PricedCart {
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
  const priced = carts.price(cart);
  const group = priced.quote.fulfillment?.[0]?.groups[0];
  if (!group || !priced.groupId || group.selectedOptionId) return priced;
  const cheapest = group.options[0];
  if (!cheapest) throw new OrderActionError(group.unavailableReason ?? 'No shipping rate reaches this address.');
  cart.selected.set(priced.groupId, optionHandle(cheapest.id));
  return carts.price(cart);
}

/** Payments that never come back place no order; the cart stays as it was. */
function refused(payment: PaymentMethod): string | undefined {
  if (payment.type === 'card' && payment.threeDSecure === 'fail')
    return 'Your payment could not be verified (3-D Secure authentication failed).';
  if (payment.type === 'offsite' && payment.outcome === 'cancelled') return 'The payment was cancelled at the payment provider.';
  return undefined;
}

export async function payCheckout(carts: Carts, orders: Orders, token: string, input: PayInput = {}): Promise<OrderRecord> {
  const cart = carts.byToken(token);
  if (!cart) throw new OrderActionError('This checkout is no longer available.');
  if (cart.lines.length === 0) throw new OrderActionError('Your cart is empty.');
  if (carts.stockWarnings(cart).length) throw new OrderActionError('Some items in your cart are sold out.');
  const payment = input.payment ?? { type: 'card' };
  const refusal = refused(payment);
  if (refusal) throw new OrderActionError(refusal);
  const pickup = pickupLocation(carts, cart, input);
  const priced = pickup ? carts.price(cart, pickup.locationId) : shipped(carts, cart, input);
  const { quote, request, ctx } = priced;
  const { gateway, opening } = checkoutPayment(payment, quote.totals.total, ctx.shop.paymentCapture);
  const order = await orders.create({
    quote,
    money: quoteMoney(ctx.store.data, request, quote, carts.clock()),
    email: input.email ?? cart.buyer.email ?? 'buyer@example.com',
    sourceName: 'web',
    cartToken: cart.token,
    tags: [],
    attributes: cart.attributes,
    lineAttributes: new Map(cart.lines.map((l) => [l.id, l.attributes])),
    shippingAddress: pickup ? null : (carts.selectedAddress(cart)?.address ?? null),
    pickup: pickup ?? null,
    payment: { gateway, opening },
  });
  for (const l of quote.lines) ctx.shop.commitStock(l.variantId, l.quantity);
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
