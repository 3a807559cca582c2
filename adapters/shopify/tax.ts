/**
 * Tax for a cart, from Shopify: the Storefront Cart API leaves tax to checkout, so once a cart
 * has a delivery address and an option for every delivery group, the adapter asks the Admin
 * API's `draftOrderCalculate` with the same lines, applicable codes, address and shipping (the
 * selected option as the shipping line): the tax Shopify's checkout will charge. The answer is
 * kept in the backend handle with a fingerprint of what it depends on, so reading an unchanged
 * checkout costs no second call.
 *
 * On a shop whose prices include tax (`taxesIncluded`), Shopify's total is the sum of the prices:
 * the quote adds no tax (its tax total is 0) and shows Shopify's tax lines as the tax the prices
 * contain (`included`, summed in `includedTax`), never added to the total.
 */
import { createHash } from 'node:crypto';
import type { PostalAddress, Quote } from '../contract.js';
import { fromMinorUnits } from '../kit/money.js';
import { fromShopifyAddress, toShopifyAddress } from './addresses.js';
import type { SfCart } from './cart-types.js';
import { LINE_ATTRIBUTE } from './ids.js';

export interface TaxResult {
  key: string;
  lines: Array<{ title: string; amount: number }>;
  /** The shop's prices already include these amounts. */
  included?: boolean;
}

/** The address of the pickup location selected in `quote` (a pickup option id is the location's gid). */
function pickupAddress(cart: SfCart, quote: Quote): PostalAddress | undefined {
  const selected = (quote.fulfillment ?? []).flatMap((m) => (m.type === 'pickup' ? m.groups.map((g) => g.selectedOptionId) : []));
  const locations = cart.lines.nodes.flatMap((l) => l.merchandise.storeAvailability.nodes.map((a) => a.location));
  const location = locations.find((l) => selected.includes(l.id));
  return location && fromShopifyAddress(location.address);
}

/**
 * The draft order Shopify would price exactly as the cart, or undefined when tax cannot be known
 * yet. A pickup order is taxed where it is collected: the location's address, with no shipping
 * line (local pickup is free).
 */
export function draftFor(cart: SfCart, quote: Quote, shipTo: PostalAddress | undefined, email: string | undefined) {
  const ships = quote.lines.some((l) => l.requiresShipping);
  const groups = (quote.fulfillment ?? []).flatMap((m) => m.groups);
  const address = shipTo ?? pickupAddress(cart, quote);
  if (!ships || !address || groups.length === 0 || groups.some((g) => !g.selectedOptionId)) return undefined;
  const shippingGroups = (quote.fulfillment ?? []).flatMap((m) => (m.type === 'shipping' ? m.groups : []));
  const shipping = shippingGroups.map((g) => g.options.find((o) => o.id === g.selectedOptionId)!);
  const currency = quote.currency;
  return {
    lineItems: cart.lines.nodes.map((l) => ({
      variantId: l.merchandise.id,
      quantity: l.quantity,
      customAttributes: l.attributes.filter((a) => a.key === LINE_ATTRIBUTE),
    })),
    ...(email && { email }),
    shippingAddress: toShopifyAddress(address),
    ...(shipping.length > 0 && {
      shippingLine: {
        title: shipping.map((o) => o.title).join(' + '),
        priceWithCurrency: {
          amount: fromMinorUnits(
            shipping.reduce((s, o) => s + o.amount, 0),
            currency,
          ),
          currencyCode: currency,
        },
      },
    }),
    discountCodes: cart.discountCodes.filter((c) => c.applicable).map((c) => c.code),
    acceptAutomaticDiscounts: true,
    presentmentCurrencyCode: currency,
  };
}

export const taxKey = (draft: object) => createHash('sha256').update(JSON.stringify(draft)).digest('base64url').slice(0, 16);

/** The quote with Shopify's tax added. */
export function withTax(quote: Quote, tax: TaxResult | undefined): Quote {
  if (!tax) return quote;
  const total = tax.lines.reduce((s, t) => s + t.amount, 0);
  if (tax.included) {
    const taxLines = tax.lines.map((t) => ({ ...t, included: true }));
    return { ...quote, taxLines, totals: { ...quote.totals, tax: 0, includedTax: total } };
  }
  return { ...quote, taxLines: tax.lines, totals: { ...quote.totals, tax: total, total: quote.totals.total + total } };
}
