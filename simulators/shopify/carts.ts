/**
 * Storefront carts: kept in memory, priced on every read by the shop's engine (lines, codes,
 * automatic discounts, delivery groups for the selected address), presented as Shopify's Cart.
 *
 * As on Shopify: a cart is priced in the currency of its buyer's country; one delivery group
 * holds the lines that ship, and has options only once a delivery address is selected; codes are
 * case-insensitive and listed with `applicable`; tax is left to checkout (the Cart API no longer
 * reports it); tracked stock caps a line's quantity with a MERCHANDISE_NOT_ENOUGH_STOCK warning
 * (changelog "Cart Warnings in Storefront API Cart", 2024-10). Merchandise that is sold out,
 * unpublished or unknown is refused on add with the user error MERCHANDISE_NOT_APPLICABLE
 * (changelog "Cart mutations now return error for invalid merchandise configuration", 2025-10);
 * a line that sells out once in the cart stays there (`availableForSale: false`) and every
 * mutation answers a MERCHANDISE_OUT_OF_STOCK warning targeting it (the 2024-10 changelog: "out of
 * stock lines can be easily removed from a cart by using the target field"). A completed (paid)
 * cart is gone.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AppliedDiscount, DiscountRejection, Quote, QuoteRequest } from '../../adapters/contract.js';
import { mailingAddress, postalAddress, type DeliveryAddressInput } from './addresses.js';
import { connection, gid, gidId, money, type ConnectionArgs } from './graph.js';
import { variantNode, visible, type CatalogContext } from './catalog.js';
import { shopQuote } from './pricing.js';
import type { ShopData } from './shop-data.js';
import type { StoreVariant } from '../../adapters/memory/model.js';

export interface Attribute {
  key: string;
  value: string;
}

export interface CartLineRecord {
  id: string;
  variantId: string;
  quantity: number;
  attributes: Attribute[];
}

/** `CartPreferencesInput`: what prefills Shopify's checkout (delivery method, pickup location, wallets). */
export interface CartPreferences {
  delivery?: { deliveryMethod?: string[] | null; pickupHandle?: string[] | null } | null;
  wallet?: string[] | null;
}

export interface CartRecord {
  token: string;
  key: string;
  /** Sequence number, for delivery group ids. */
  n: number;
  createdAt: string;
  updatedAt: string;
  lines: CartLineRecord[];
  discountCodes: string[];
  buyer: { email?: string | null; phone?: string | null; countryCode?: string | null; preferences?: CartPreferences | null };
  addresses: Array<{ id: string; address: DeliveryAddressInput; selected: boolean; oneTimeUse: boolean }>;
  /** Selected delivery option handle per delivery group id. */
  selected: Map<string, string>;
  attributes: Attribute[];
  note: string | null;
  /** Carrier-rate reads left before the delivery groups resolve (ShopData.carrierRates). */
  carrierReadsLeft: number;
}

export interface UserError {
  field: string[] | null;
  message: string;
  code: string;
}

export interface CartWarning {
  code: string;
  message: string;
  target: string;
}

const REJECTION_WARNING: Record<DiscountRejection, string> = {
  invalid: 'DISCOUNT_NOT_FOUND',
  expired: 'DISCOUNT_CURRENTLY_INACTIVE',
  already_applied: 'DISCOUNT_CODE_NOT_HONOURED',
  combination_disallowed: 'DISCOUNT_CODE_NOT_HONOURED',
  user_not_logged_in: 'DISCOUNT_ELIGIBLE_CUSTOMER_MISSING',
  user_ineligible: 'DISCOUNT_CUSTOMER_NOT_ELIGIBLE',
  not_applicable: 'DISCOUNT_NO_ENTITLED_LINE_ITEMS',
};

/** Shopify delivery option handles are opaque hashes; the simulator derives them from rate ids. */
export const optionHandle = (rateId: string) => createHash('sha256').update(`rate:${rateId}`).digest('hex').slice(0, 32);

export const cartGid = (cart: Pick<CartRecord, 'token' | 'key'>) => `${gid('Cart', cart.token)}?key=${cart.key}`;

/** Codes as the cart keeps them: case-insensitive, each once, in the order entered. */
export function uniqueCodes(codes: string[]): string[] {
  const seen = new Set<string>();
  return codes.filter((c) => {
    const key = c.trim().toUpperCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface PricedCart {
  ctx: CatalogContext;
  quote: Quote;
  groupId?: string;
  /** Rate id by option handle for this cart's delivery group. */
  rateByHandle: Map<string, string>;
}

const soldOut = (source: StoreVariant) => ['out_of_stock', 'discontinued'].includes(source.variant.availability.status);

export class Carts {
  private readonly carts = new Map<string, CartRecord>();
  private sequence = 0;

  constructor(
    private readonly shop: ShopData,
    private readonly now: () => number,
  ) {}

  create(countryCode: string | null): CartRecord {
    const at = new Date(this.now()).toISOString();
    const cart: CartRecord = {
      token: `hWN${randomBytes(18).toString('base64url')}`,
      key: randomBytes(16).toString('hex'),
      n: ++this.sequence,
      createdAt: at,
      updatedAt: at,
      lines: [],
      discountCodes: [],
      buyer: { countryCode },
      addresses: [],
      selected: new Map(),
      attributes: [],
      note: null,
      carrierReadsLeft: 0,
    };
    this.carts.set(cart.token, cart);
    return cart;
  }

  /** The cart named by a cart id with its key; undefined when unknown or the key is wrong. */
  find(cartId: string): CartRecord | undefined {
    const token = gidId('Cart', cartId);
    const cart = token ? this.carts.get(token) : undefined;
    const key = /[?&]key=([^&]+)/.exec(cartId)?.[1];
    return cart && cart.key === key ? cart : undefined;
  }

  get taxesIncluded(): boolean {
    return this.shop.taxesIncluded;
  }

  /** Every cart, oldest first (for tests that look at what a buyer's cart holds). */
  all(): CartRecord[] {
    return [...this.carts.values()];
  }

  byToken(token: string): CartRecord | undefined {
    return this.carts.get(token);
  }

  /** A paid cart is gone, as on Shopify. */
  remove(cart: CartRecord): void {
    this.carts.delete(cart.token);
  }

  touch(cart: CartRecord): void {
    cart.updatedAt = new Date(this.now()).toISOString();
  }

  context(cart: CartRecord): CatalogContext {
    const market = this.shop.market(cart.buyer.countryCode);
    return { shop: this.shop, market, store: this.shop.store(market) };
  }

  /** Adds or merges a line (same merchandise and attributes), capped to what can be sold. */
  addLine(
    cart: CartRecord,
    line: { merchandiseId: string; quantity: number; attributes: Attribute[]; index: number },
    warnings: CartWarning[],
    errors: UserError[],
  ): void {
    const { merchandiseId, quantity, attributes } = line;
    const variantId = this.shop.ids.demoId('ProductVariant', merchandiseId);
    const source = variantId ? this.shop.base.variants.get(variantId) : undefined;
    if (!source || !visible(source.product) || soldOut(source)) {
      errors.push({
        field: ['lines', String(line.index), 'merchandiseId'],
        message: 'The merchandise is not applicable: it cannot be purchased as configured.',
        code: 'MERCHANDISE_NOT_APPLICABLE',
      });
      return;
    }
    const same = cart.lines.find((l) => l.variantId === variantId && JSON.stringify(l.attributes) === JSON.stringify(attributes));
    const wanted = (same?.quantity ?? 0) + quantity;
    const allowed = this.cap(source.variant.id, wanted, merchandiseId, warnings);
    if (allowed === 0) return;
    if (same) same.quantity = allowed;
    else
      cart.lines.push({
        id: `${gid('CartLine', randomUUID())}?cart=${cart.token}`,
        variantId: source.variant.id,
        quantity: allowed,
        attributes,
      });
  }

  /** The quantity that can be in the cart, with Shopify's stock warnings. */
  cap(variantId: string, wanted: number, target: string, warnings: CartWarning[]): number {
    const source = this.shop.base.variants.get(variantId)!;
    // A sold-out line stays as it is; stockWarnings reports it.
    if (soldOut(source)) return wanted;
    if (source.stock !== null && !source.backorder && !source.preorderOn && wanted > source.stock) {
      warnings.push({
        code: 'MERCHANDISE_NOT_ENOUGH_STOCK',
        message: `Only ${source.stock} items were added to your cart due to availability.`,
        target,
      });
      return source.stock;
    }
    return wanted;
  }

  /** MERCHANDISE_OUT_OF_STOCK for every line whose merchandise sold out, targeting the line. */
  stockWarnings(cart: CartRecord): CartWarning[] {
    return cart.lines
      .filter((l) => soldOut(this.shop.base.variants.get(l.variantId)!))
      .map((l) => ({ code: 'MERCHANDISE_OUT_OF_STOCK', message: 'This product is currently out of stock.', target: l.id }));
  }

  /** A new delivery address: carrier rates are asked for again, and pending meanwhile. */
  addressChanged(cart: CartRecord): void {
    cart.carrierReadsLeft = this.shop.carrierRates?.pendingReads ?? 0;
  }

  /** Delivery options as one read shows them: carrier rates only when asked for and no longer pending. */
  carrierRatesShown(cart: CartRecord, withCarrierRates: boolean): boolean {
    if (!this.shop.carrierRates) return true;
    if (!withCarrierRates) return false;
    if (cart.carrierReadsLeft === 0) return true;
    cart.carrierReadsLeft--;
    return false;
  }

  get carrierPending() {
    return (cart: CartRecord) => !!this.shop.carrierRates && cart.carrierReadsLeft > 0;
  }

  selectedAddress(cart: CartRecord) {
    return cart.addresses.find((a) => a.selected);
  }

  price(cart: CartRecord): PricedCart {
    const ctx = this.context(cart);
    const address = this.selectedAddress(cart);
    const physical = cart.lines.filter((l) => this.shop.base.variants.get(l.variantId)!.variant.requiresShipping);
    const groupId = address && physical.length ? gid('CartDeliveryGroup', `${cart.n}00${1}`) : undefined;
    const rateByHandle = new Map(ctx.store.data.rates.map((r) => [optionHandle(r.id), r.id]));
    const selectedHandle = groupId ? cart.selected.get(groupId) : undefined;
    const selectedRate = selectedHandle ? rateByHandle.get(selectedHandle) : undefined;
    const request: QuoteRequest = {
      currency: ctx.market.currency,
      lines: cart.lines.map((l) => ({ lineId: l.id, variantId: l.variantId, quantity: l.quantity })),
      ...(cart.buyer.email && { buyer: { email: cart.buyer.email } }),
      discountCodes: uniqueCodes(cart.discountCodes),
      ...(groupId && {
        fulfillment: {
          methods: [
            {
              methodId: 'shipping',
              type: 'shipping' as const,
              lineIds: physical.map((l) => l.id),
              destination: { address: postalAddress(address!.address) },
              ...(selectedRate && { selectedOptions: { all: selectedRate } }),
            },
          ],
          multiGroup: false,
        },
      }),
    };
    return {
      ctx,
      quote: shopQuote(ctx.store.data, request, this.now(), this.shop.taxesIncluded),
      ...(groupId && { groupId }),
      rateByHandle,
    };
  }

  /** Shopify's warnings for codes that do not apply. */
  codeWarnings(cart: CartRecord, priced: PricedCart): CartWarning[] {
    return priced.quote.discounts.rejected.map((r) => ({
      code: REJECTION_WARNING[r.reason ?? 'invalid'],
      message: `The discount code ${r.code} is not applicable.`,
      target: cartGid(cart),
    }));
  }
}

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

/** The Cart object of the Storefront API. */
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
      // Tax is left to checkout: the total is what the engine quotes without added tax.
      totalAmount: money(q.totals.total - (carts.taxesIncluded ? 0 : (q.totals.tax ?? 0)), currency),
      totalAmountEstimated: false,
      checkoutChargeAmount: money(q.totals.subtotal, currency),
      totalTaxAmount: null,
      totalTaxAmountEstimated: true,
      totalDutyAmount: null,
      totalDutyAmountEstimated: true,
    },
    metafield: () => null,
    metafields: ({ identifiers }: { identifiers: unknown[] }) => identifiers.map(() => null),
  };
}
