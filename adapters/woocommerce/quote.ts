/**
 * Pricing in the store's own cart (Store API), so lines, coupons, shipping and tax come out
 * exactly as the store's checkout computes them:
 * - lines: one cart item per variant (lines of one variant share it and split its totals by
 *   quantity); add-item refusals become line problems;
 * - codes: applied in the submitted order; a refusal gets its reason from the coupon's rules
 *   (coupon-reasons.ts), a code a later individual-use coupon pushed out is
 *   combination_disallowed, a repeated code already_applied; each coupon's discount is
 *   allocated to the lines it reduced (the Store API totals per line, not per coupon);
 * - fulfillment: one group per shipping package (key `package-{id}`); when the platform takes a
 *   single group and the store ships several packages, one group `packages-{ids}` offers the
 *   rates every package has, priced as their sum;
 * - tax: the store's, for the destination (or the buyer's location hint); null without either.
 *   Amounts come from the tax-exclusive line totals: cart item `prices` follow the store's
 *   `woocommerce_tax_display_cart` (src/StoreApi/Schemas/V1/CartItemSchema.php) and include tax
 *   on stores that display prices with tax. The quote must add up to the cart's `total_price`
 *   (less a rate the store picked by default and the buyer did not), or it is refused.
 */
import type {
  AppliedDiscount,
  DiscountRejection,
  FulfillmentGroupQuote,
  FulfillmentMethodQuote,
  FulfillmentOptionQuote,
  LineProblem,
  PostalAddress,
  Quote,
  QuotedLine,
  QuoteRequest,
} from '../contract.js';
import { InvalidAnswerError } from '../contract.js';
import type { Catalog, KnownVariant } from './catalog.js';
import type { CouponReasons } from './coupon-reasons.js';
import { storeMinor } from './money.js';
import type { WpErrorBody } from './http.js';
import type { CartAddress, CartItemRequest, StoreCartClient } from './store-cart.js';
import type { StoreInfo } from './store-info.js';
import { decodeVariantId } from './variant-id.js';
import type { StoreCart } from './wc-shapes.js';

export interface QuoteDeps {
  catalog: Catalog;
  cart: StoreCartClient;
  reasons: CouponReasons;
  info: StoreInfo;
}

/** Group keys name the packages they stand for: `package-0`, or `packages-0-1` for a merged group. */
export const packagesOfKey = (key: string): number[] => {
  const single = /^package-(\d+)$/.exec(key);
  if (single) return [Number(single[1])];
  const merged = /^packages-(\d+(?:-\d+)*)$/.exec(key);
  return merged ? merged[1]!.split('-').map(Number) : [];
};

/** Splits `total` over `weights` exactly (largest remainder). */
export function split(total: number, weights: number[]): number[] {
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

const cartAddress = (a: Partial<PostalAddress> | undefined): CartAddress => ({
  first_name: a?.firstName ?? '',
  last_name: a?.lastName ?? '',
  company: '',
  address_1: a?.streetAddress ?? '',
  address_2: a?.extendedAddress ?? '',
  city: a?.locality ?? '',
  state: a?.region ?? '',
  postcode: a?.postalCode ?? '',
  country: a?.country ?? '',
  phone: a?.phone ?? '',
});

/** The address fields named by the store's validation codes (AbstractAddressSchema::validate_callback). */
const REFUSED_FIELD: Record<string, keyof PostalAddress> = {
  invalid_country: 'country',
  invalid_state: 'region',
  invalid_postcode: 'postalCode',
  invalid_phone: 'phone',
  invalid_first_name: 'firstName',
  invalid_last_name: 'lastName',
  invalid_address_1: 'streetAddress',
  invalid_address_2: 'extendedAddress',
  invalid_city: 'locality',
};

interface RefusalDetail {
  code?: unknown;
  message?: unknown;
  additional_errors?: Array<{ code?: unknown; message?: unknown }>;
}

/** What `cart/update-customer` refused of the shipping address, field by field (rest_invalid_param details). */
function addressRefusals(error: WpErrorBody): NonNullable<FulfillmentMethodQuote['destinationProblems']> {
  const data = error.data as { details?: Record<string, RefusalDetail>; params?: Record<string, unknown> } | undefined;
  const detail = data?.details?.shipping_address;
  const all = detail ? [detail, ...(detail.additional_errors ?? [])] : [];
  const problems = all.flatMap((e) => {
    if (typeof e.message !== 'string') return [];
    const field = typeof e.code === 'string' ? REFUSED_FIELD[e.code] : undefined;
    return [{ ...(field && { field }), detail: e.message }];
  });
  if (problems.length) return problems;
  const said = data?.params?.shipping_address ?? data?.params?.billing_address;
  return [{ detail: typeof said === 'string' ? said : error.message }];
}

/** The shipping destination of a request: the first shipping method's address. */
export function destinationOf(request: QuoteRequest): PostalAddress | undefined {
  for (const method of request.fulfillment?.methods ?? []) {
    if (method.type === 'shipping' && method.destination && 'address' in method.destination) return method.destination.address;
  }
  return undefined;
}

function fulfillableOn(known: KnownVariant, quantity: number): string | null {
  const a = known.variant.availability;
  if (a.status === 'preorder') return a.availableOn ?? null;
  if (a.status === 'backorder' || (a.quantity !== null && a.quantity < quantity)) return null;
  return 'now';
}

interface Planned {
  lineId: string;
  variantId: string;
  quantity: number;
  known: KnownVariant;
  item: number;
}

const ITEM_PROBLEMS: Record<string, 'out_of_stock' | 'not_found'> = {
  woocommerce_rest_product_out_of_stock: 'out_of_stock',
  woocommerce_rest_product_not_purchasable: 'out_of_stock',
  woocommerce_rest_add_to_cart_error: 'out_of_stock',
};

export async function quoteInStore(deps: QuoteDeps, request: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
  const { currency } = await deps.info.get(signal);
  const known = await deps.catalog.variants(
    request.lines.map((l) => l.variantId),
    signal,
  );
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

  const seen = new Set<string>();
  const codes: Array<{ code: string; index: number }> = [];
  const rejected: Quote['discounts']['rejected'] = [];
  request.discountCodes.forEach((code, index) => {
    const key = code.trim().toLowerCase();
    if (seen.has(key)) rejected.push({ code, index, reason: 'already_applied', detail: `${code} is already applied.` });
    else {
      seen.add(key);
      codes.push({ code, index });
    }
  });

  const destination = destinationOf(request);
  const shipping = cartAddress(destination ?? request.location);
  const email = request.buyer?.email ?? request.identity?.email;
  // The buyer's name and email (coupon email rules); no billing address or phone is priced.
  const billing: CartAddress = {
    ...cartAddress(undefined),
    email: email ?? '',
    first_name: request.buyer?.firstName ?? '',
    last_name: request.buyer?.lastName ?? '',
  };
  const selections = (request.fulfillment?.methods ?? [])
    .filter((m) => m.type === 'shipping')
    .flatMap((m) =>
      Object.entries(m.selectedOptions ?? {}).flatMap(([key, rateId]) => packagesOfKey(key).map((packageId) => ({ packageId, rateId }))),
    );

  const outcome = await deps.cart.apply(
    request.handle,
    { items, codes: codes.map((c) => c.code), shipping, billing, rates: selections },
    signal,
  );
  const cart = outcome.cart;
  const money = (value: string) => storeMinor(value, cart.totals.currency_minor_unit, currency);

  // Lines, matched to the cart's items by product and chosen attribute values.
  const itemErrors = new Map(
    outcome.errors.filter((e) => e.step.kind === 'item').map((e) => [(e.step as { index: number }).index, e.error]),
  );
  const cartItemOf = (item: CartItemRequest) =>
    cart.items.find(
      (ci) =>
        ci.id === item.id &&
        item.variation.every((v) => (ci.variation.find((x) => x.attribute === v.attribute)?.value ?? v.value) === v.value),
    );
  const lines: QuotedLine[] = [];
  const lineDiscounts = new Map<string, number>();
  const itemKeyOfLine = new Map<string, string>();
  for (const [index, item] of items.entries()) {
    const mine = planned.filter((p) => p.item === index);
    const error = itemErrors.get(index);
    const inCart = cartItemOf(item);
    if (error || !inCart) {
      const remaining = /\((\d+) remaining\)/.exec(error?.message ?? '');
      for (const p of mine) {
        if (error?.code === 'woocommerce_rest_product_partially_out_of_stock' && remaining) {
          problems.push({ lineId: p.lineId, code: 'insufficient_stock', available: Number(remaining[1]) });
        } else {
          problems.push({ lineId: p.lineId, code: error ? (ITEM_PROBLEMS[error.code] ?? 'not_found') : 'out_of_stock' });
        }
      }
      continue;
    }
    // Net of tax: line_subtotal is before discounts and tax whatever the store displays.
    const lineSubtotal = money(inCart.totals.line_subtotal);
    const unitPrice = Math.round(lineSubtotal / inCart.quantity);
    const subtotals = split(
      lineSubtotal,
      mine.map((p) => p.quantity),
    );
    const discounts = split(
      lineSubtotal - money(inCart.totals.line_total),
      mine.map((p) => p.quantity),
    );
    mine.forEach((p, i) => {
      const v = p.known.variant;
      lineDiscounts.set(p.lineId, discounts[i]!);
      itemKeyOfLine.set(p.lineId, inCart.key);
      lines.push({
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
  lines.sort((a, b) => request.lines.findIndex((l) => l.lineId === a.lineId) - request.lines.findIndex((l) => l.lineId === b.lineId));

  // Codes: refusals with reasons, pushed-out codes, and the applied ones with their allocations.
  const couponErrors = new Map(
    outcome.errors.filter((e) => e.step.kind === 'coupon').map((e) => [(e.step as { index: number }).index, e.error]),
  );
  const applied = new Set(cart.coupons.map((c) => c.code.toLowerCase()));
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
  rejected.sort((a, b) => a.index - b.index);
  const discounted = lines.filter((l) => (lineDiscounts.get(l.lineId) ?? 0) > 0);
  const SORT: Record<string, number> = { fixed_product: 1, percent: 2, fixed_cart: 3 };
  const coupons = [...cart.coupons].sort((a, b) => (SORT[a.discount_type] ?? 4) - (SORT[b.discount_type] ?? 4));
  const allocationsOf = coupons.map((c) =>
    split(
      money(c.totals.total_discount),
      discounted.map((l) => lineDiscounts.get(l.lineId)!),
    ),
  );
  const appliedDiscounts: AppliedDiscount[] = coupons.map((c, i) => {
    const submitted = codes.find((x) => x.code.trim().toLowerCase() === c.code.toLowerCase())?.code ?? c.code;
    const amount = money(c.totals.total_discount);
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
              .map((l, j) => ({ target: { kind: 'line' as const, lineId: l.lineId }, amount: allocationsOf[i]![j]! }))
              .filter((a) => a.amount > 0)
          : [],
    };
  });

  const rateErrors = new Set(outcome.errors.filter((e) => e.step.kind === 'rate').map((e) => (e.step as { index: number }).index));
  // A refused address leaves the cart on the one before: nothing is quoted for either.
  const addressError = outcome.errors.find((e) => e.step.kind === 'address')?.error;
  const refusals = addressError ? addressRefusals(addressError) : undefined;
  const fulfillment = request.fulfillment
    ? fulfillmentQuote(request, cart, lines, itemKeyOfLine, money, selections, rateErrors, Boolean(destination) && !refusals).map((m) =>
        refusals && m.type === 'shipping' ? { ...m, destinationProblems: refusals } : m,
      )
    : undefined;
  const physical = lines.filter((l) => l.requiresShipping);
  const when = physical.map((l) => l.fulfillableOn);
  const shippingTotal = physical.length === 0 ? 0 : fulfillment ? sumSelected(fulfillment) : null;
  const located = !refusals && Boolean(destination?.country || request.location?.country);
  const shippingTax = cart.totals.total_shipping_tax ? money(cart.totals.total_shipping_tax) : 0;
  // The store taxes the rate it has selected by default; only a rate the buyer chose is counted.
  const tax = located ? money(cart.totals.total_tax) - (shippingTotal ? 0 : shippingTax) : null;
  const subtotal = lines.reduce((n, l) => n + l.subtotal, 0);
  const itemsDiscount = appliedDiscounts.reduce((n, d) => n + d.amount, 0);
  const total = subtotal - itemsDiscount + (shippingTotal ?? 0) + (tax ?? 0);
  // The store's own total, without a default rate the buyer has not chosen and, unlocated, without tax.
  const unchosen = shippingTotal === null && cart.totals.total_shipping ? money(cart.totals.total_shipping) + shippingTax : 0;
  const storeTotal = money(cart.totals.total_price) - unchosen - (tax === null ? money(cart.totals.total_tax) : 0);
  if (storeTotal !== total) {
    throw new InvalidAnswerError(
      `the store's cart totals ${storeTotal} in minor units, not the ${total} its lines, discounts, shipping and tax add up to ` +
        '(fees or a pricing plugin the gateway cannot quote?)',
    );
  }
  return {
    handle: outcome.token,
    currency,
    lines,
    lineProblems: problems,
    discounts: { applied: appliedDiscounts, rejected },
    ...(fulfillment && { fulfillment }),
    availableMethods: physical.length
      ? [
          {
            type: 'shipping',
            lineIds: physical.map((l) => l.lineId),
            fulfillableOn: when.includes(null)
              ? null
              : (when
                  .filter((w) => w !== 'now')
                  .sort()
                  .at(-1) ?? 'now'),
            description: 'Shipped by the store to your address.',
          },
        ]
      : [],
    taxLines: tax === null ? [] : cart.totals.tax_lines.map((t) => ({ title: t.name, amount: money(t.price) })),
    totals: {
      subtotal,
      itemsDiscount,
      discount: 0,
      shipping: shippingTotal,
      tax,
      total,
    },
  };
}

function sumSelected(methods: FulfillmentMethodQuote[]): number | null {
  const selected = methods.flatMap((m) => m.groups.flatMap((g) => g.options.filter((o) => o.id === g.selectedOptionId)));
  return selected.length ? selected.reduce((n, o) => n + o.amount, 0) : null;
}

function fulfillmentQuote(
  request: QuoteRequest,
  cart: StoreCart,
  lines: QuotedLine[],
  itemKeyOfLine: Map<string, string>,
  money: (value: string) => number,
  selections: Array<{ packageId: number; rateId: string }>,
  rateErrors: Set<number>,
  hasDestination: boolean,
): FulfillmentMethodQuote[] {
  const refused = new Set(selections.filter((_, i) => rateErrors.has(i)).map((s) => `${s.packageId}|${s.rateId}`));
  const priced = new Set(lines.map((l) => l.lineId));
  return request.fulfillment!.methods.map((method) => {
    const lineIds = method.lineIds.filter((id) => priced.has(id) && lines.find((l) => l.lineId === id)!.requiresShipping);
    const base = { methodId: method.methodId, type: method.type, lineIds };
    if (method.type !== 'shipping') {
      return { ...base, groups: [{ key: 'pickup', lineIds, options: [], unavailableReason: 'This store offers no pickup.' }] };
    }
    if (lineIds.length === 0) return { ...base, groups: [] };
    if (!hasDestination) return { ...base, groups: [{ key: 'package-0', lineIds, options: [] }] };
    if (!cart.has_calculated_shipping) {
      return { ...base, groups: [{ key: 'package-0', lineIds, options: [], unavailableReason: 'The store cannot ship to this address.' }] };
    }
    const packages = cart.shipping_rates.map((p) => ({
      id: Number(p.package_id),
      lineIds: lineIds.filter((id) => p.items.some((i) => i.key === itemKeyOfLine.get(id))),
      rates: p.shipping_rates,
    }));
    const optionOf = (r: StoreCart['shipping_rates'][number]['shipping_rates'][number], amount: number): FulfillmentOptionQuote => {
      const description = [r.description, r.delivery_time].filter(Boolean).join(', ');
      return { id: r.rate_id, title: r.name, ...(description && { description }), amount };
    };
    const chosen = (key: string, options: FulfillmentOptionQuote[], ids: number[]) => {
      const wanted = method.selectedOptions?.[key];
      const ok = wanted && options.some((o) => o.id === wanted) && ids.every((id) => !refused.has(`${id}|${wanted}`));
      return ok ? { selectedOptionId: wanted } : {};
    };
    const reason = 'The store has no shipping option for this address.';
    let groups: FulfillmentGroupQuote[];
    if (packages.length <= 1 || request.fulfillment!.multiGroup) {
      groups = packages.map((p) => {
        const key = `package-${p.id}`;
        const options = p.rates.map((r) => optionOf(r, money(r.price))).sort((a, b) => a.amount - b.amount);
        return {
          key,
          lineIds: p.lineIds,
          options,
          ...(options.length === 0 && { unavailableReason: reason }),
          ...chosen(key, options, [p.id]),
        };
      });
    } else {
      const key = `packages-${packages.map((p) => p.id).join('-')}`;
      const common = packages[0]!.rates.filter((r) => packages.every((p) => p.rates.some((x) => x.rate_id === r.rate_id)));
      const options = common
        .map((r) =>
          optionOf(
            r,
            packages.reduce((n, p) => n + money(p.rates.find((x) => x.rate_id === r.rate_id)!.price), 0),
          ),
        )
        .sort((a, b) => a.amount - b.amount);
      groups = [
        {
          key,
          lineIds,
          options,
          ...(options.length === 0 && { unavailableReason: reason }),
          ...chosen(
            key,
            options,
            packages.map((p) => p.id),
          ),
        },
      ];
    }
    return { ...base, groups };
  });
}
