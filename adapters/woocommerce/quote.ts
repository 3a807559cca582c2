/**
 * Pricing in the store's own cart (Store API), so lines, coupons, shipping and tax come out
 * exactly as the store's checkout computes them:
 * - lines: one cart item per variant (lines of one variant share it and split its totals by
 *   quantity); add-item refusals become line problems;
 * - codes: applied in the submitted order; a refusal gets its reason from the coupon's rules
 *   (coupon-reasons.ts), a code a later individual-use coupon pushed out is
 *   combination_disallowed, a repeated code already_applied; each coupon's discount is
 *   allocated to the lines it reduced (the Store API totals per line, not per coupon);
 * - fulfillment: one group per shipping package (quote-fulfillment.ts);
 * - tax: the store's, for the destination (or the buyer's location hint); null without either.
 *   Amounts come from the line totals and their tax, never from cart item `prices`, which follow
 *   the store's `woocommerce_tax_display_cart` (src/StoreApi/Schemas/V1/CartItemSchema.php). On a
 *   store whose prices exclude tax, lines are net and the tax is added; on one whose prices
 *   include it (`woocommerce_prices_include_tax`, store-info.ts), lines, coupons and the item
 *   discount are gross (line_subtotal + line_subtotal_tax, total_discount + total_discount_tax)
 *   and the items' tax is `includedTax`, while the tax on shipping is still added: WooCommerce
 *   shipping costs never include tax (WC_Shipping_Rate taxes are calculated on top,
 *   WC_Tax::calc_shipping_tax). The quote must add up to the cart's `total_price` (less a rate
 *   the store picked by default and the buyer did not), or it is refused.
 */
import type { AppliedDiscount, DiscountRejection, LineProblem, Quote, QuotedLine, QuoteRequest } from '../contract.js';
import { InvalidAnswerError } from '../contract.js';
import { destinationOf, wcAddress } from './addresses.js';
import { decodeHandle, encodeHandle } from './cart-handle.js';
import type { Catalog, KnownVariant } from './catalog.js';
import type { CouponReasons } from './coupon-reasons.js';
import type { WpErrorBody } from './http.js';
import { storeMinor } from './money.js';
import { quoteFulfillment, rateSelections, sumSelected } from './quote-fulfillment.js';
import type { CartAddress, CartItemRequest, CartOutcome, StoreCartClient, Step } from './store-cart.js';
import type { StoreInfo } from './store-info.js';
import { decodeVariantId } from './variant-id.js';
import type { StoreCart } from './wc-shapes.js';

export interface QuoteDeps {
  catalog: Catalog;
  cart: StoreCartClient;
  reasons: CouponReasons;
  info: StoreInfo;
}

type Money = (value: string) => number;
/** How the store enters prices: net (tax added) or gross (`woocommerce_prices_include_tax`). */
interface Pricing {
  money: Money;
  inclusive: boolean;
}
type Rejected = Quote['discounts']['rejected'][number];
/** A submitted code and its position in `discountCodes`. */
type Code = { code: string; index: number };

/** Splits `total` over `weights` exactly (largest remainder). */
function split(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const raw = weights.map((w) => (total * w) / sum);
  const floors = raw.map(Math.floor);
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left <= 0) break;
    floors[i]! += 1;
    left -= 1;
  }
  return floors;
}

function fulfillableOn(known: KnownVariant, quantity: number): string | null {
  const a = known.variant.availability;
  if (a.status === 'preorder') return a.availableOn ?? null;
  if (a.status === 'backorder' || (a.quantity !== null && a.quantity < quantity)) return null;
  return 'now';
}

/** The errors the store answered to one kind of the cart's steps, by the step's index. */
const stepErrors = (outcome: CartOutcome, kind: Exclude<Step['kind'], 'address' | 'other'>) =>
  new Map(outcome.errors.filter((e) => e.step.kind === kind).map((e) => [(e.step as { index: number }).index, e.error]));

interface Planned {
  lineId: string;
  variantId: string;
  quantity: number;
  known: KnownVariant;
  item: number;
}

/** The cart's items: one per variant (lines of one variant share it); lines that cannot go in are problems. */
function planItems(request: QuoteRequest, known: Map<string, KnownVariant>) {
  const problems: LineProblem[] = [];
  const planned: Planned[] = [];
  const items: CartItemRequest[] = [];
  const itemOf = new Map<string, number>();
  for (const line of request.lines) {
    const found = known.get(line.variantId);
    const ref = decodeVariantId(line.variantId);
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) problems.push({ lineId: line.lineId, code: 'invalid_quantity' });
    else if (!found || !ref) problems.push({ lineId: line.lineId, code: 'not_found' });
    else if (found.variant.availability.status === 'discontinued') problems.push({ lineId: line.lineId, code: 'discontinued' });
    else {
      let item = itemOf.get(line.variantId);
      if (item === undefined) {
        item =
          items.push({ id: ref.id, quantity: 0, variation: found.variant.options.map((o) => ({ attribute: o.name, value: o.value })) }) - 1;
        itemOf.set(line.variantId, item);
      }
      items[item]!.quantity += line.quantity;
      planned.push({ lineId: line.lineId, variantId: line.variantId, quantity: line.quantity, known: found, item });
    }
  }
  return { problems, planned, items };
}

/** The codes to apply, once each in the submitted order; a repeated one is already_applied. */
function submittedCodes(discountCodes: string[]): { codes: Code[]; repeated: Rejected[] } {
  const seen = new Set<string>();
  const codes: Code[] = [];
  const repeated: Rejected[] = [];
  discountCodes.forEach((code, index) => {
    const key = code.trim().toLowerCase();
    if (seen.has(key)) repeated.push({ code, index, reason: 'already_applied', detail: `${code} is already applied.` });
    else {
      seen.add(key);
      codes.push({ code, index });
    }
  });
  return { codes, repeated };
}

/** The buyer's name and email (coupon email rules); no billing address or phone is priced. */
function billingOf(request: QuoteRequest, email: string | undefined): CartAddress {
  return {
    ...wcAddress(undefined),
    email: email ?? '',
    first_name: request.buyer?.firstName ?? '',
    last_name: request.buyer?.lastName ?? '',
  };
}

const ITEM_PROBLEMS: Record<string, 'out_of_stock' | 'not_found'> = {
  woocommerce_rest_product_out_of_stock: 'out_of_stock',
  woocommerce_rest_product_not_purchasable: 'out_of_stock',
  woocommerce_rest_add_to_cart_error: 'out_of_stock',
};

/** The problem of each line of an item the store refused, or left out of the cart. */
function refusedItemProblems(mine: Planned[], error: WpErrorBody | undefined): LineProblem[] {
  const remaining = /\((\d+) remaining\)/.exec(error?.message ?? '');
  return mine.map((p): LineProblem => {
    if (error?.code === 'woocommerce_rest_product_partially_out_of_stock' && remaining)
      return { lineId: p.lineId, code: 'insufficient_stock', available: Number(remaining[1]) };
    return { lineId: p.lineId, code: error ? (ITEM_PROBLEMS[error.code] ?? 'not_found') : 'out_of_stock' };
  });
}

interface PricedLines {
  lines: QuotedLine[];
  problems: LineProblem[];
  /** The discount the store took off each line, net of tax. */
  lineDiscounts: Map<string, number>;
  /** The cart item key of each line. */
  itemKeyOfLine: Map<string, string>;
}

/**
 * The lines, matched to the cart's items by product and chosen attribute values, in the request's
 * order; lines of one item split its totals by quantity. Amounts as the store enters prices: net
 * (line_subtotal is before discounts and tax whatever the store displays) or, on a store whose
 * prices include tax, gross (with line_subtotal_tax, line_total_tax).
 */
function pricedLines(request: QuoteRequest, plan: ReturnType<typeof planItems>, outcome: CartOutcome, pricing: Pricing): PricedLines {
  const { money, inclusive } = pricing;
  const { cart } = outcome;
  const itemErrors = stepErrors(outcome, 'item');
  const cartItemOf = (item: CartItemRequest) =>
    cart.items.find(
      (ci) =>
        ci.id === item.id &&
        item.variation.every((v) => (ci.variation.find((x) => x.attribute === v.attribute)?.value ?? v.value) === v.value),
    );
  const priced: PricedLines = { lines: [], problems: [], lineDiscounts: new Map(), itemKeyOfLine: new Map() };
  for (const [index, item] of plan.items.entries()) {
    const mine = plan.planned.filter((p) => p.item === index);
    const error = itemErrors.get(index);
    const inCart = cartItemOf(item);
    if (error || !inCart) {
      priced.problems.push(...refusedItemProblems(mine, error));
      continue;
    }
    const t = inCart.totals;
    const lineSubtotal = money(t.line_subtotal) + (inclusive ? money(t.line_subtotal_tax) : 0);
    const lineTotal = money(t.line_total) + (inclusive ? money(t.line_total_tax) : 0);
    const unitPrice = Math.round(lineSubtotal / inCart.quantity);
    const quantities = mine.map((p) => p.quantity);
    const subtotals = split(lineSubtotal, quantities);
    const discounts = split(lineSubtotal - lineTotal, quantities);
    mine.forEach((p, i) => {
      const v = p.known.variant;
      priced.lineDiscounts.set(p.lineId, discounts[i]!);
      priced.itemKeyOfLine.set(p.lineId, inCart.key);
      priced.lines.push({
        lineId: p.lineId,
        variantId: p.variantId,
        productId: p.known.product.id,
        title: p.known.product.title,
        ...(p.known.product.options.length > 0 && { variantTitle: v.title }),
        ...((inCart.sku || v.sku) && { sku: inCart.sku || v.sku }),
        unitPrice,
        quantity: p.quantity,
        ...(inCart.images[0] && { imageUrl: inCart.images[0].src }),
        requiresShipping: v.requiresShipping,
        fulfillableOn: fulfillableOn(p.known, p.quantity),
        subtotal: subtotals[i]!,
      });
    });
  }
  const position = (lineId: string) => request.lines.findIndex((l) => l.lineId === lineId);
  priced.lines.sort((a, b) => position(a.lineId) - position(b.lineId));
  return priced;
}

/** Codes the store refused, with the reason the coupon's rules give, and codes a later individual-use coupon pushed out. */
async function refusedCodes(
  deps: QuoteDeps,
  codes: Code[],
  outcome: CartOutcome,
  email: string | undefined,
  signal: AbortSignal | undefined,
): Promise<Rejected[]> {
  const couponErrors = stepErrors(outcome, 'coupon');
  const applied = new Set(outcome.cart.coupons.map((c) => c.code.toLowerCase()));
  const rejected: Rejected[] = [];
  for (const [i, { code, index }] of codes.entries()) {
    const error = couponErrors.get(i);
    if (error) {
      const why = await deps.reasons.explain(code, error, email, signal);
      rejected.push({ code, index, ...(why.reason && { reason: why.reason }), detail: why.detail });
    } else if (!applied.has(code.trim().toLowerCase())) {
      rejected.push({
        code,
        index,
        reason: 'combination_disallowed' satisfies DiscountRejection,
        detail: `${code} cannot be combined with a code applied after it.`,
      });
    }
  }
  return rejected;
}

/**
 * The store's coupons in the order WooCommerce applies them (fixed product, percent, fixed cart),
 * each allocated to the lines it reduced in proportion to their discounts: the Store API totals
 * per line, not per coupon.
 */
function appliedDiscounts(cart: StoreCart, codes: Code[], priced: PricedLines, { money, inclusive }: Pricing): AppliedDiscount[] {
  const discounted = priced.lines.filter((l) => (priced.lineDiscounts.get(l.lineId) ?? 0) > 0);
  const SORT: Record<string, number> = { fixed_product: 1, percent: 2, fixed_cart: 3 };
  const coupons = [...cart.coupons].sort((a, b) => (SORT[a.discount_type] ?? 4) - (SORT[b.discount_type] ?? 4));
  return coupons.map((c, i) => {
    const submitted = codes.find((x) => x.code.trim().toLowerCase() === c.code.toLowerCase())?.code ?? c.code;
    const amount = money(c.totals.total_discount) + (inclusive ? money(c.totals.total_discount_tax) : 0);
    const shares = split(
      amount,
      discounted.map((l) => priced.lineDiscounts.get(l.lineId)!),
    );
    return {
      code: submitted,
      title: `Coupon ${submitted}`,
      amount,
      automatic: false,
      method: c.discount_type === 'fixed_cart' ? 'across' : 'each',
      priority: i + 1,
      allocations:
        amount > 0
          ? discounted
              .map((l, j) => ({ target: { kind: 'line' as const, lineId: l.lineId }, amount: shares[j]! }))
              .filter((a) => a.amount > 0)
          : [],
    };
  });
}

/** Where the physical lines can go: shipped by the store, from the latest date any of them is ready. */
function availableMethods(physical: QuotedLine[]): Quote['availableMethods'] {
  if (!physical.length) return [];
  const when = physical.map((l) => l.fulfillableOn);
  const latest = when
    .filter((w) => w !== 'now')
    .sort()
    .at(-1);
  const fulfillableOn = when.includes(null) ? null : (latest ?? 'now');
  return [
    { type: 'shipping', lineIds: physical.map((l) => l.lineId), fulfillableOn, description: 'Shipped by the store to your address.' },
  ];
}

/**
 * The totals: the store's tax when it knows where (only on a rate the buyer chose: the store
 * taxes the rate it selected by default too); on a store whose prices include tax, the items'
 * tax is `includedTax` (already in the gross lines) and only the shipping tax is added. They
 * must add up to the store's own total, less a default rate the buyer has not chosen and,
 * unlocated, less the tax added; otherwise the store prices something the gateway cannot quote
 * (fees, a pricing plugin) and the answer is refused.
 */
function checkedTotals(
  cart: StoreCart,
  lines: QuotedLine[],
  applied: AppliedDiscount[],
  shipping: number | null,
  located: boolean,
  { money, inclusive }: Pricing,
): Quote['totals'] {
  const shippingTax = cart.totals.total_shipping_tax ? money(cart.totals.total_shipping_tax) : 0;
  const chosenShippingTax = shipping ? shippingTax : 0;
  const allTax = money(cart.totals.total_tax) - (shipping ? 0 : shippingTax);
  const tax = located ? (inclusive ? chosenShippingTax : allTax) : null;
  const subtotal = lines.reduce((n, l) => n + l.subtotal, 0);
  const itemsDiscount = applied.reduce((n, d) => n + d.amount, 0);
  const total = subtotal - itemsDiscount + (shipping ?? 0) + (tax ?? 0);
  const unchosen = shipping === null && cart.totals.total_shipping ? money(cart.totals.total_shipping) + shippingTax : 0;
  const notAdded = tax !== null ? 0 : inclusive ? chosenShippingTax : money(cart.totals.total_tax);
  const storeTotal = money(cart.totals.total_price) - unchosen - notAdded;
  if (storeTotal !== total) {
    throw new InvalidAnswerError(
      `the store's cart totals ${storeTotal} in minor units, not the ${total} its lines, discounts, shipping and tax add up to ` +
        '(fees or a pricing plugin the gateway cannot quote?)',
    );
  }
  const includedTax = inclusive && tax !== null ? allTax - chosenShippingTax : undefined;
  return { subtotal, itemsDiscount, discount: 0, shipping, tax, ...(includedTax !== undefined && { includedTax }), total };
}

/**
 * The tax per rate as the cart names it; on a store whose prices include tax, each rate's tax is
 * included but for the tax on shipping, added. The Store API totals tax per rate, not per rate
 * and item: with taxed shipping and several rates, the included and the added tax are one line
 * each, the rates' names joined.
 */
function taxLinesOf(cart: StoreCart, totals: Quote['totals'], { money, inclusive }: Pricing): Quote['taxLines'] {
  if (totals.tax === null) return [];
  const rates = cart.totals.tax_lines.map((t) => ({ title: t.name, amount: money(t.price) }));
  if (!inclusive) return rates;
  const added = totals.tax;
  if (added === 0) return rates.map((r) => ({ ...r, included: true }));
  const [only, ...others] = rates;
  const title = others.length === 0 && only ? only.title : rates.map((r) => r.title).join(', ');
  return [
    { title, amount: totals.includedTax ?? 0, included: true },
    { title, amount: added },
  ].filter((l) => l.amount > 0);
}

export async function quoteInStore(deps: QuoteDeps, request: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
  const { currency, pricesIncludeTax } = await deps.info.get(signal);
  const known = await deps.catalog.variants(
    request.lines.map((l) => l.variantId),
    signal,
  );
  const plan = planItems(request, known);
  const { codes, repeated } = submittedCodes(request.discountCodes);
  const destination = destinationOf(request);
  const email = request.buyer?.email ?? request.identity?.email;
  const selections = rateSelections(request);
  const outcome = await deps.cart.apply(
    decodeHandle(request.handle)?.token,
    {
      items: plan.items,
      codes: codes.map((c) => c.code),
      shipping: wcAddress(destination ?? request.location),
      billing: billingOf(request, email),
      rates: selections,
    },
    signal,
  );
  const { cart } = outcome;
  const money = (value: string) => storeMinor(value, cart.totals.currency_minor_unit, currency);
  const pricing: Pricing = { money, inclusive: pricesIncludeTax ?? false };

  const priced = pricedLines(request, plan, outcome, pricing);
  const rejected = [...repeated, ...(await refusedCodes(deps, codes, outcome, email, signal))].sort((a, b) => a.index - b.index);
  const applied = appliedDiscounts(cart, codes, priced, pricing);
  const { lines } = priced;
  const { fulfillment, refused } = quoteFulfillment(request, {
    outcome,
    lines,
    itemKeyOfLine: priced.itemKeyOfLine,
    money,
    selections,
    hasDestination: Boolean(destination),
  });
  const physical = lines.filter((l) => l.requiresShipping);
  const shipping = physical.length === 0 ? 0 : fulfillment ? sumSelected(fulfillment) : null;
  const located = !refused && Boolean(destination?.country || request.location?.country);
  const totals = checkedTotals(cart, lines, applied, shipping, located, pricing);
  return {
    handle: encodeHandle(outcome),
    currency,
    lines,
    lineProblems: [...plan.problems, ...priced.problems],
    discounts: { applied, rejected },
    ...(fulfillment && { fulfillment }),
    availableMethods: availableMethods(physical),
    taxLines: taxLinesOf(cart, totals, pricing),
    totals,
  };
}
