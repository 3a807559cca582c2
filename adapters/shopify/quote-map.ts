/**
 * A Shopify cart as the contract's quote. What Shopify's Cart API says is taken as is (line costs,
 * discount allocations per line and per delivery group, delivery options and the selected one);
 * nothing is re-priced. The Cart API no longer reports tax: it is null here and added from the
 * Admin API once it can be known (tax.ts). Refused codes carry no reason: Shopify only says
 * `applicable: false`.
 */
import type {
  AppliedDiscount,
  AvailableMethod,
  FulfillmentGroupQuote,
  FulfillmentMethodQuote,
  FulfillmentMethodRequest,
  LineProblem,
  Quote,
  QuotedLine,
  QuoteRequest,
} from '../contract.js';
import type { CartHandle } from './cart-sync.js';
import { groupKeys } from './cart-sync.js';
import type { SfAllocation, SfCart } from './cart-types.js';
import { money } from './money.js';
import { LINE_ATTRIBUTE } from './ids.js';
import { pickupAvailable, pickupGroup, type PickupLine } from './pickup.js';

const DEFAULT_TITLE = 'Default Title';

function lineProblems(request: QuoteRequest, handle: CartHandle, cart: SfCart): LineProblem[] {
  const inCart = new Map(cart.lines.nodes.map((l) => [l.attributes.find((a) => a.key === LINE_ATTRIBUTE)?.value, l]));
  return request.lines.flatMap((line): LineProblem[] => {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) return [{ lineId: line.lineId, code: 'invalid_quantity' }];
    const sent = handle.lines[line.lineId];
    if (!sent || sent.problem === 'not_found') return [{ lineId: line.lineId, code: 'not_found' }];
    const cartLine = inCart.get(line.lineId);
    // Shopify keeps a line that sold out in the cart, no longer for sale (and warns MERCHANDISE_OUT_OF_STOCK).
    if (!cartLine || !cartLine.merchandise.availableForSale) return [{ lineId: line.lineId, code: 'out_of_stock' }];
    return cartLine.quantity < line.quantity ? [{ lineId: line.lineId, code: 'insufficient_stock', available: cartLine.quantity }] : [];
  });
}

/** Discounts in Shopify's application order, each with its allocations to lines and delivery groups. */
function discounts(
  request: QuoteRequest,
  cart: SfCart,
  lineIdOf: Map<string, string>,
  shippingTarget: (groupId: string) => { methodId: string; groupKey: string } | undefined,
) {
  const applied = new Map<string, AppliedDiscount>();
  const keyOf = (a: { code?: string; title?: string }) => (a.code ? `code:${a.code.toUpperCase()}` : `auto:${a.title}`);
  cart.discountApplications.forEach((app, i) => {
    const key = keyOf(app);
    if (applied.has(key)) return;
    const submitted = app.code && request.discountCodes.find((c) => c.toUpperCase() === app.code!.toUpperCase());
    applied.set(key, {
      ...(app.code && { code: submitted || app.code }),
      title: app.code ?? app.title ?? 'Discount',
      amount: 0,
      automatic: !app.code,
      method: app.allocationMethod === 'EACH' ? 'each' : 'across',
      priority: i + 1,
      allocations: [],
    });
  });
  const allocate = (a: SfAllocation, target: AppliedDiscount['allocations'][number]['target']) => {
    const discount = applied.get(keyOf(a));
    const amount = money(a.discountedAmount);
    if (!discount || amount === 0) return;
    discount.amount += amount;
    discount.allocations.push({ target, amount });
  };
  for (const line of cart.lines.nodes)
    for (const a of line.discountAllocations) allocate(a, { kind: 'line', lineId: lineIdOf.get(line.id)! });
  for (const group of cart.deliveryGroups.nodes) {
    const target = shippingTarget(group.id);
    for (const a of group.discountAllocations) allocate(a, target ? { kind: 'shipping', ...target } : { kind: 'order' });
  }
  const rejected = request.discountCodes.flatMap((code, index) => {
    const state = cart.discountCodes.find((c) => c.code.toUpperCase() === code.toUpperCase());
    const first = request.discountCodes.findIndex((c) => c.toUpperCase() === code.toUpperCase()) === index;
    return state?.applicable && first ? [] : [{ code, index }];
  });
  return { applied: [...applied.values()], rejected };
}

/** Each priced physical line with where Shopify says it can be collected. */
function pickupLinesOf(cart: SfCart, lineIdOf: Map<string, string>, physical: QuotedLine[]): PickupLine[] {
  const byLine = new Map(cart.lines.nodes.map((l) => [lineIdOf.get(l.id)!, l]));
  return physical.map((q) => ({
    lineId: q.lineId,
    title: q.title,
    quantity: q.quantity,
    availability: byLine.get(q.lineId)?.merchandise.storeAvailability.nodes ?? [],
  }));
}

/** The priced lines in the request's order: Shopify's price per unit and its line cost. */
function quotedLines(request: QuoteRequest, cart: SfCart, lineIdOf: Map<string, string>): QuotedLine[] {
  const cartLineOf = new Map(cart.lines.nodes.map((l) => [lineIdOf.get(l.id)!, l]));
  return request.lines.flatMap((line) => {
    const cartLine = cartLineOf.get(line.lineId);
    if (!cartLine) return [];
    const m = cartLine.merchandise;
    const unitPrice = money(cartLine.cost.amountPerQuantity);
    return [
      {
        lineId: line.lineId,
        variantId: m.id,
        productId: m.product.id,
        title: m.product.title,
        ...(m.title !== DEFAULT_TITLE && { variantTitle: m.title }),
        ...(m.sku && { sku: m.sku }),
        unitPrice,
        quantity: line.quantity,
        ...(m.image && { imageUrl: m.image.url }),
        requiresShipping: m.requiresShipping,
        fulfillableOn: m.currentlyNotInStock ? null : 'now',
        // Shopify's own line cost; at a stock-capped quantity, the requested one (the contract's insufficient_stock).
        subtotal: cartLine.quantity === line.quantity ? money(cartLine.cost.subtotalAmount) : unitPrice * line.quantity,
      },
    ];
  });
}

/** What quoting one fulfillment method needs of the cart. */
interface MethodContext {
  cart: SfCart;
  lineIdOf: Map<string, string>;
  /** Group key of each delivery group. */
  keys: Map<string, string>;
  physical: QuotedLine[];
  pickupLines: PickupLine[];
  /** The one shipping method Shopify's cart can quote (the first). */
  shippingMethod: FulfillmentMethodRequest | undefined;
  ratesPending: boolean;
}

/** The delivery groups of the cart with their options, cheapest first, and the one selected. */
function deliveryGroups({ cart, lineIdOf, keys, ratesPending }: MethodContext, lineIds: string[]): FulfillmentGroupQuote[] {
  return cart.deliveryGroups.nodes.map((g) => {
    const options = g.deliveryOptions
      .filter((o) => o.deliveryMethodType === 'SHIPPING' || o.deliveryMethodType === 'LOCAL')
      .map((o) => ({
        id: o.handle,
        title: o.title ?? 'Shipping',
        ...(o.description && { description: o.description }),
        amount: money(o.estimatedCost),
      }))
      .sort((a, b) => a.amount - b.amount);
    const selected = g.selectedDeliveryOption?.handle;
    return {
      key: keys.get(g.id)!,
      lineIds: g.cartLines.nodes.map((l) => lineIdOf.get(l.id)!).filter((id) => lineIds.includes(id)),
      options,
      ...(options.length === 0 && {
        unavailableReason: ratesPending
          ? "The store's carriers are still calculating shipping options for this address; ask again in a moment."
          : 'The store does not ship these items to this address.',
      }),
      ...(selected && options.some((o) => o.id === selected) && { selectedOptionId: selected }),
    };
  });
}

/** One requested fulfillment method as Shopify's cart prices it. */
function methodQuote(method: FulfillmentMethodRequest, context: MethodContext): FulfillmentMethodQuote {
  const lineIds = method.lineIds.filter((id) => context.physical.some((l) => l.lineId === id));
  if (method.type === 'pickup') {
    const { group } = pickupGroup(
      method,
      context.pickupLines.filter((l) => lineIds.includes(l.lineId)),
    );
    return { methodId: method.methodId, type: 'pickup', lineIds, groups: lineIds.length ? [group] : [] };
  }
  if (method !== context.shippingMethod) {
    // Shopify's cart ships to one address: a second shipping method is not offered.
    const reason = 'The store ships every parcel of an order to one address.';
    return {
      methodId: method.methodId,
      type: method.type,
      lineIds,
      groups: lineIds.length ? [{ key: 'shipping', lineIds, options: [], unavailableReason: reason }] : [],
    };
  }
  const groups = deliveryGroups(context, lineIds);
  // No delivery group yet (no address): one group of every line, waiting for a destination.
  return {
    methodId: method.methodId,
    type: 'shipping',
    lineIds,
    groups: groups.length ? groups : lineIds.length ? [{ key: 'shipping', lineIds, options: [] }] : [],
  };
}

/** Shipping by the store, and pickup where Shopify says the lines can be collected. */
function availableMethods(physical: QuotedLine[], pickup: AvailableMethod | undefined): AvailableMethod[] {
  if (!physical.length) return [];
  const shipping: AvailableMethod = {
    type: 'shipping',
    lineIds: physical.map((l) => l.lineId),
    fulfillableOn: physical.some((l) => l.fulfillableOn === null) ? null : 'now',
    description: 'Shipped by the store.',
  };
  return [shipping, ...(pickup ? [pickup] : [])];
}

/** The quote's totals before tax (tax.ts adds it): shipping counts the selected options, null while none is. */
function totals(lines: QuotedLine[], applied: AppliedDiscount[], fulfillment: FulfillmentMethodQuote[] | undefined): Quote['totals'] {
  const physical = lines.filter((l) => l.requiresShipping);
  const selectedAmounts = (fulfillment ?? []).flatMap((m) =>
    m.groups.flatMap((g) => (g.selectedOptionId ? [g.options.find((o) => o.id === g.selectedOptionId)!.amount] : [])),
  );
  const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
  const allocations = applied.flatMap((d) => d.allocations);
  const itemsDiscount = allocations.filter((a) => a.target.kind === 'line').reduce((s, a) => s + a.amount, 0);
  const discount = allocations.filter((a) => a.target.kind !== 'line').reduce((s, a) => s + a.amount, 0);
  const shipping = physical.length === 0 ? 0 : selectedAmounts.length ? selectedAmounts.reduce((s, a) => s + a, 0) : null;
  return { subtotal, itemsDiscount, discount, shipping, tax: null, total: subtotal - itemsDiscount - discount + (shipping ?? 0) };
}

/** `ratesPending`: Shopify was still calculating carrier rates for a group without options. */
export function toQuote(request: QuoteRequest, handle: CartHandle, cart: SfCart, ratesPending = false): Quote {
  const lineIdOf = new Map(cart.lines.nodes.map((l) => [l.id, l.attributes.find((a) => a.key === LINE_ATTRIBUTE)?.value ?? l.id]));
  const lines = quotedLines(request, cart, lineIdOf);
  const keys = groupKeys(cart);
  const shippingMethod = request.fulfillment?.methods.find((m) => m.type === 'shipping');
  const shippingTarget = (groupId: string) =>
    shippingMethod ? { methodId: shippingMethod.methodId, groupKey: keys.get(groupId)! } : undefined;
  const { applied, rejected } = discounts(request, cart, lineIdOf, shippingTarget);
  const physical = lines.filter((l) => l.requiresShipping);
  const pickupLines = pickupLinesOf(cart, lineIdOf, physical);
  const context: MethodContext = { cart, lineIdOf, keys, physical, pickupLines, shippingMethod, ratesPending };
  const fulfillment = request.fulfillment?.methods.map((method) => methodQuote(method, context));
  return {
    currency: cart.cost.subtotalAmount.currencyCode,
    lines,
    lineProblems: lineProblems(request, handle, cart),
    discounts: { applied, rejected },
    ...(fulfillment && { fulfillment }),
    availableMethods: availableMethods(physical, pickupAvailable(pickupLines, physical)),
    taxLines: [],
    totals: totals(lines, applied, fulfillment),
  };
}
