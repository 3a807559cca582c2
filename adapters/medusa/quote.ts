/**
 * A priced Medusa cart as the protocol's quote, in steps: the requested lines (Medusa's item
 * subtotal: before tax; as priced, with its tax, when the price includes it), the fulfillment
 * groups as the cart now holds them, the discounts per code, and the totals as Medusa computes and
 * charges them (totals.ts; the tax inside prices that include it, included-tax.ts).
 */
import type { AvailableMethod, FulfillmentMethodQuote, LineProblem, Quote, QuotedLine, QuoteRequest } from '../contract.js';
import { toMinor } from './money.js';
import type { MedusaCart, MedusaLineItem } from './shapes.js';
import { groupOfOption, quotedGroups, type ShippingPlans } from './shipping.js';
import { shippingAsPriced, splitTax } from './included-tax.js';
import { discountsOf, settleTotals, type Adjusted } from './totals.js';

export const lineIdOf = (item: MedusaLineItem): string | undefined => {
  const id = item.metadata?.gateway_line_id;
  return typeof id === 'string' ? id : undefined;
};

/** What the cart's own answer does not say: the lines Medusa refused, the codes it refused, the shipping groups planned. */
export interface QuoteParts {
  lineProblems: LineProblem[];
  rejected: Quote['discounts']['rejected'];
  /** Per shipping method of the request, its groups. */
  shipping?: ShippingPlans;
}

/** The cart's items the request asked for, in the request's order. */
function requestedItems(request: QuoteRequest, cart: MedusaCart): MedusaLineItem[] {
  const order = new Map(request.lines.map((l, n) => [l.lineId, n]));
  return [...(cart.items ?? [])]
    .filter((i) => order.has(lineIdOf(i) ?? ''))
    .sort((a, b) => order.get(lineIdOf(a)!)! - order.get(lineIdOf(b)!)!);
}

function quotedLine(item: MedusaLineItem, currency: string): QuotedLine {
  const unitPrice = toMinor(item.unit_price, currency);
  return {
    lineId: lineIdOf(item)!,
    variantId: item.variant_id,
    productId: item.product_id,
    title: item.product_title ?? item.title ?? '',
    ...(item.variant_title &&
      item.variant_title !== 'Default variant' &&
      item.variant_title !== item.product_title && { variantTitle: item.variant_title }),
    ...(item.variant_sku && { sku: item.variant_sku }),
    unitPrice,
    quantity: item.quantity,
    ...(item.thumbnail && { imageUrl: item.thumbnail }),
    requiresShipping: item.requires_shipping !== false,
    fulfillableOn: 'now',
    subtotal:
      item.is_tax_inclusive === true || item.subtotal === undefined || item.subtotal === null
        ? unitPrice * item.quantity
        : toMinor(item.subtotal, currency),
  };
}

/** Each requested method: shipping with its planned groups as the cart now holds them; pickup is not offered. */
function fulfillmentQuote(
  request: QuoteRequest,
  cart: MedusaCart,
  lines: QuotedLine[],
  plans: ShippingPlans | undefined,
): FulfillmentMethodQuote[] {
  const shipped = new Set(lines.filter((l) => l.requiresShipping).map((l) => l.lineId));
  const hasAddress = Boolean(cart.shipping_address?.country_code);
  return request.fulfillment!.methods.map((method) => {
    const lineIds = method.lineIds.filter((id) => shipped.has(id));
    const groups =
      method.type === 'shipping'
        ? quotedGroups(cart, plans?.get(method.methodId) ?? [], hasAddress)
        : [{ key: 'pickup', lineIds, options: [], unavailableReason: 'This store does not offer pickup.' }];
    return { methodId: method.methodId, type: method.type, lineIds, groups };
  });
}

/** The adjustments of the lines and of the shipping methods, each with what it reduces. */
function adjustedOf(request: QuoteRequest, cart: MedusaCart, items: MedusaLineItem[], plans: ShippingPlans | undefined): Adjusted[] {
  const method = request.fulfillment?.methods.find((m) => m.type === 'shipping');
  const groups = (method && plans?.get(method.methodId)) ?? [];
  return [
    ...items.map((item) => ({
      target: { kind: 'line' as const, lineId: lineIdOf(item)! },
      adjustments: item.adjustments ?? [],
      gross: item.is_tax_inclusive === true,
    })),
    ...(cart.shipping_methods ?? []).map((m) => {
      const groupKey = groupOfOption(groups, m.shipping_option_id);
      return {
        target: method && groupKey ? { kind: 'shipping' as const, methodId: method.methodId, groupKey } : { kind: 'order' as const },
        adjustments: m.adjustments ?? [],
        gross: m.is_tax_inclusive === true,
      };
    }),
  ];
}

function availableMethods(lines: QuotedLine[]): AvailableMethod[] {
  const shipped = lines.filter((l) => l.requiresShipping).map((l) => l.lineId);
  return shipped.length > 0 ? [{ type: 'shipping', lineIds: shipped, fulfillableOn: 'now', description: 'Ships from the store.' }] : [];
}

export function toQuote(request: QuoteRequest, cart: MedusaCart, parts: QuoteParts): Quote {
  const currency = String(cart.currency_code).toUpperCase();
  const minor = (amount: unknown) => toMinor(amount ?? 0, currency);
  const items = requestedItems(request, cart);
  const lines = items.map((item) => quotedLine(item, currency));
  const applied = discountsOf(adjustedOf(request, cart, items, parts.shipping), request.discountCodes, currency);
  const methods = cart.shipping_methods ?? [];
  const shipping =
    methods.length > 0
      ? shippingAsPriced(methods, cart.shipping_subtotal, currency)
      : request.fulfillment && lines.every((l) => !l.requiresShipping)
        ? 0
        : null;
  // Tax is known once Medusa knows where the cart goes.
  const taxed = cart.shipping_address?.country_code ? splitTax([...items, ...methods], cart.tax_total, currency) : undefined;
  const totals = settleTotals(
    {
      subtotal: lines.reduce((s, l) => s + l.subtotal, 0),
      shipping,
      tax: taxed ? taxed.tax : null,
      total: minor(cart.total),
      ...(taxed?.included && { includedTax: taxed.included.includedTax }),
    },
    applied,
  );
  return {
    handle: cart.id,
    currency,
    lines,
    lineProblems: parts.lineProblems,
    discounts: { applied, rejected: parts.rejected },
    ...(request.fulfillment && { fulfillment: fulfillmentQuote(request, cart, lines, parts.shipping) }),
    availableMethods: availableMethods(lines),
    taxLines: [...(totals.tax ? [{ title: 'Tax', amount: totals.tax }] : []), ...(taxed?.included?.taxLines ?? [])],
    totals,
  };
}
