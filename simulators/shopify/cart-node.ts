/**
 * The Storefront API's Cart (2026-10) as one read shows it: lines with their costs and discount
 * allocations, delivery groups for the selected address (carrier rates only when asked for, see
 * carts.ts), discount codes and applications, and `cost`.
 */
import type { AppliedDiscount } from '../../adapters/contract.js';
import { mailingAddress } from './addresses.js';
import { cartGid, optionHandle, uniqueCodes, type CartLineRecord, type CartRecord, type Carts } from './carts.js';
import { variantNode } from './catalog.js';
import { connection, money, type ConnectionArgs } from './graph.js';

type Allocation = AppliedDiscount['allocations'][number];

/** Shopify's discount application of an applied discount, and its allocations. */
function application(d: AppliedDiscount, currency: string, shipping: boolean) {
  const code = d.code?.toUpperCase();
  return {
    __typename: code ? 'CartCodeDiscountApplication' : 'CartAutomaticDiscountApplication',
    ...(code ? { code } : { title: d.title }),
    allocationMethod: d.method === 'each' ? 'EACH' : 'ACROSS',
    targetSelection: d.method === 'each' ? 'ENTITLED' : 'ALL',
    targetType: shipping ? 'SHIPPING_LINE' : 'LINE_ITEM',
    totalAllocatedAmount: money(d.amount, currency),
    // The engine's rule value is not in the quote; the allocated amount is what the adapter uses.
    value: { __typename: 'MoneyV2', ...money(d.amount, currency) },
  };
}

function allocationNode(d: AppliedDiscount, a: Allocation, currency: string) {
  const app = application(d, currency, a.target.kind === 'shipping');
  const { __typename: _t, totalAllocatedAmount: _a, ...legacy } = app;
  return {
    __typename: d.code ? 'CartCodeDiscountAllocation' : 'CartAutomaticDiscountAllocation',
    ...(d.code ? { code: d.code.toUpperCase() } : { title: d.title }),
    discountedAmount: money(a.amount, currency),
    targetType: app.targetType,
    sourceDiscountApplication: app,
    discountApplication: legacy,
  };
}

/** The cart as the Storefront API shows it; merchandise texts in the query's language. */
export function cartNode(carts: Carts, cart: CartRecord, checkoutUrl: string, language?: string) {
  const priced = carts.price(cart);
  const { quote: q } = priced;
  const ctx = { ...priced.ctx, ...(language && { language }) };
  const currency = q.currency;
  const applied = q.discounts.applied.filter((d) => d.amount > 0 || d.code);
  const each = (d: AppliedDiscount) => d.method === 'each';
  const lineAllocations = (lineId: string, lineLevelOnly: boolean) =>
    applied.flatMap((d) =>
      d.allocations
        .filter((a) => a.target.kind === 'line' && a.target.lineId === lineId && (!lineLevelOnly || each(d)))
        .map((a) => allocationNode(d, a, currency)),
    );
  const lineTotal = (lineId: string, subtotal: number) =>
    subtotal -
    applied
      .filter(each)
      .reduce(
        (s, d) => s + d.allocations.filter((a) => a.target.kind === 'line' && a.target.lineId === lineId).reduce((t, a) => t + a.amount, 0),
        0,
      );
  const quoted = new Map(q.lines.map((l) => [l.lineId, l]));
  // A sold-out line is not priced by the engine; Shopify still shows it at its price.
  const priceOf = (l: CartLineRecord) => {
    const { price } = ctx.store.data.variants.get(l.variantId)!.variant;
    return quoted.get(l.id) ?? { unitPrice: price.amount, subtotal: price.amount * l.quantity };
  };
  const lines = cart.lines.map((l) => {
    const line = priceOf(l);
    const variant = ctx.store.data.variants.get(l.variantId)!.variant;
    return {
      __typename: 'CartLine',
      id: l.id,
      quantity: l.quantity,
      merchandise: variantNode(ctx, variant),
      attributes: l.attributes,
      attribute: ({ key }: { key: string }) => l.attributes.find((a) => a.key === key) ?? null,
      cost: {
        amountPerQuantity: money(line.unitPrice, currency),
        compareAtAmountPerQuantity: null,
        subtotalAmount: money(line.subtotal, currency),
        totalAmount: money(lineTotal(l.id, line.subtotal), currency),
      },
      discountAllocations: ({ lineLevelOnly }: { lineLevelOnly?: boolean }) => lineAllocations(l.id, lineLevelOnly ?? true),
      sellingPlanAllocation: null,
    };
  });
  const group = q.fulfillment?.[0]?.groups[0];
  const selectedOption = group?.selectedOptionId;
  const shippingAllocations = applied.flatMap((d) =>
    d.allocations.filter((a) => a.target.kind === 'shipping').map((a) => allocationNode(d, a, currency)),
  );
  const option = (o: NonNullable<typeof group>['options'][number]) => ({
    handle: optionHandle(o.id),
    code: o.id,
    title: o.title,
    description: o.description ?? null,
    deliveryMethodType: 'SHIPPING',
    estimatedCost: money(o.amount, currency),
  });
  const selectedAddress = carts.selectedAddress(cart);
  const deliveryGroups =
    group && priced.groupId && selectedAddress
      ? [
          {
            id: priced.groupId,
            groupType: 'ONE_TIME_PURCHASE',
            cartLines: (args: ConnectionArgs) =>
              connection(
                lines.filter((l) => group.lineIds.includes(l.id)),
                args,
              ),
            deliveryAddress: mailingAddress(selectedAddress.id, selectedAddress.address),
            deliveryOptions: group.options.map(option),
            selectedDeliveryOption: selectedOption ? option(group.options.find((o) => o.id === selectedOption)!) : null,
            discountAllocations: shippingAllocations,
          },
        ]
      : [];
  const subtotal = cart.lines.reduce((s, l) => s + lineTotal(l.id, priceOf(l).subtotal), 0);
  const cartLevel = applied.flatMap((d) =>
    d.allocations.filter((a) => a.target.kind !== 'line' || !each(d)).map((a) => allocationNode(d, a, currency)),
  );
  return {
    __typename: 'Cart',
    id: cartGid(cart),
    checkoutUrl,
    createdAt: cart.createdAt,
    updatedAt: cart.updatedAt,
    note: cart.note,
    totalQuantity: cart.lines.reduce((s, l) => s + l.quantity, 0),
    attributes: cart.attributes,
    attribute: ({ key }: { key: string }) => cart.attributes.find((a) => a.key === key) ?? null,
    buyerIdentity: {
      countryCode: cart.buyer.countryCode ?? null,
      email: cart.buyer.email ?? null,
      phone: cart.buyer.phone ?? null,
      customer: null,
      deliveryAddressPreferences: [],
      // Checkout prefill only (CartDeliveryPreference): kept and shown back, never applied to the cart.
      preferences: cart.buyer.preferences
        ? {
            delivery: {
              coordinates: null,
              deliveryMethod: cart.buyer.preferences.delivery?.deliveryMethod ?? [],
              pickupHandle: cart.buyer.preferences.delivery?.pickupHandle ?? [],
            },
            wallet: cart.buyer.preferences.wallet ?? [],
          }
        : null,
      purchasingCompany: null,
    },
    delivery: {
      addresses: ({ selected }: { selected?: boolean }) =>
        cart.addresses
          .filter((a) => !selected || a.selected)
          .map((a) => ({
            id: a.id,
            selected: a.selected,
            oneTimeUse: a.oneTimeUse,
            address: { __typename: 'CartDeliveryAddress', ...mailingAddress(a.id, a.address) },
          })),
    },
    deliveryGroups: (args: ConnectionArgs & { withCarrierRates?: boolean | null }) => {
      if (carts.carrierRatesShown(cart, !!args.withCarrierRates)) return connection(deliveryGroups, args);
      return connection(
        deliveryGroups.map((g) => ({ ...g, deliveryOptions: [], selectedDeliveryOption: null })),
        args,
      );
    },
    discountCodes: uniqueCodes(cart.discountCodes).map((code) => ({
      code,
      applicable: !q.discounts.rejected.some((r) => r.code === code),
    })),
    discountApplications: applied.map((d) =>
      application(
        d,
        currency,
        d.allocations.some((a) => a.target.kind === 'shipping'),
      ),
    ),
    discountAllocations: cartLevel,
    appliedGiftCards: [],
    lines: (args: ConnectionArgs) => connection(lines, args),
    cost: {
      subtotalAmount: money(subtotal, currency),
      subtotalAmountEstimated: false,
      // Tax is left to checkout (changelog "Tax and Duties are deprecated in Storefront Cart API", 2025-01: "calculated at
      // Checkout"): a shop that adds tax shows totals without it; on a tax-inclusive shop the prices carry it, and so the total.
      totalAmount: money(q.totals.total - (carts.taxesIncluded ? 0 : (q.totals.tax ?? 0)), currency),
      totalAmountEstimated: false,
      // "If the cart has no deferred payments, then the checkout charge amount is equivalent to `subtotalAmount`" (CartCost, 2026-10).
      checkoutChargeAmount: money(subtotal, currency),
      // Deprecated and "no longer available" (same changelog).
      totalTaxAmount: null,
      totalTaxAmountEstimated: true,
      totalDutyAmount: null,
      totalDutyAmountEstimated: true,
    },
    metafield: () => null,
    metafields: ({ identifiers }: { identifiers: unknown[] }) => identifiers.map(() => null),
  };
}
