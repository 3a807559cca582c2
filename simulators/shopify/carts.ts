/**
 * Storefront carts: kept in memory, priced on every read by the shop's engine (lines, codes,
 * automatic discounts, delivery groups for the selected address), presented as Shopify's Cart
 * (cart-node.ts).
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
import type { DiscountRejection, Quote, QuoteRequest } from '../../adapters/contract.js';
import { postalAddress, type DeliveryAddressInput } from './addresses.js';
import { dateTime, gid, gidId } from './graph.js';
import { visible, type CatalogContext } from './catalog.js';
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
  /** What priced it (for the per-line split of discounts and tax, line-money.ts). */
  request: QuoteRequest;
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
    const at = dateTime(this.now());
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

  /** The simulator's clock (pricing depends on the time: discounts start and end). */
  clock(): number {
    return this.now();
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
    cart.updatedAt = dateTime(this.now());
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

  /**
   * The cart priced by the shop's checkout: shipped to its selected address with the selected
   * option, or, at checkout, collected at a pickup location (local pickup is free; the tax is the
   * location's).
   */
  price(cart: CartRecord, pickupLocationId?: string): PricedCart {
    const ctx = this.context(cart);
    const address = this.selectedAddress(cart);
    const physical = cart.lines.filter((l) => this.shop.base.variants.get(l.variantId)!.variant.requiresShipping);
    const groupId = address && physical.length ? gid('CartDeliveryGroup', `${cart.n}00${1}`) : undefined;
    const rateByHandle = new Map(ctx.store.data.rates.map((r) => [optionHandle(r.id), r.id]));
    const selectedHandle = groupId ? cart.selected.get(groupId) : undefined;
    const selectedRate = selectedHandle ? rateByHandle.get(selectedHandle) : undefined;
    const shipping = groupId && {
      methodId: 'shipping',
      type: 'shipping' as const,
      lineIds: physical.map((l) => l.id),
      destination: { address: postalAddress(address!.address) },
      ...(selectedRate && { selectedOptions: { all: selectedRate } }),
    };
    const pickup = pickupLocationId &&
      physical.length && {
        methodId: 'pickup',
        type: 'pickup' as const,
        lineIds: physical.map((l) => l.id),
        destination: { locationId: pickupLocationId },
        selectedOptions: { all: `pickup-${pickupLocationId}` },
      };
    const method = pickup || shipping;
    const request: QuoteRequest = {
      currency: ctx.market.currency,
      lines: cart.lines.map((l) => ({ lineId: l.id, variantId: l.variantId, quantity: l.quantity })),
      ...(cart.buyer.email && { buyer: { email: cart.buyer.email } }),
      discountCodes: uniqueCodes(cart.discountCodes),
      ...(method && { fulfillment: { methods: [method], multiGroup: false } }),
    };
    return {
      ctx,
      quote: shopQuote(ctx.store.data, request, this.now(), this.shop.taxesIncluded),
      request,
      ...(groupId && !pickup && { groupId }),
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
