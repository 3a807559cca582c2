/**
 * Cart and order totals the way WooCommerce computes them, in integer minor units:
 * - coupons (WC_Discounts): items sorted by line price, highest first; coupons sorted
 *   fixed_product, percent, fixed_cart; each coupon computed on the undiscounted line price and
 *   capped at what is left of it (`woocommerce_calc_discounts_sequentially` = no); a percent
 *   coupon floors per line and hands out the rounding remainder a cent per unit; a fixed cart
 *   coupon is split per unit equally, its remainder likewise
 *   (plugins/woocommerce/includes/class-wc-discounts.php);
 * - shipping (WC_Shipping): packages to the zone matching the shipping address, flat rates
 *   and a free shipping method unlocked by a coupon and/or a minimum spend;
 * - tax (WC_Tax): the first matching rate per priority (state before country), rounded per line
 *   (`woocommerce_tax_round_at_subtotal` = no), shipping taxed by rates marked for shipping
 *   (shipping costs never include tax). Prices entered exclusive of tax are taxed on top; with
 *   `woocommerce_prices_include_tax` the entered price is gross: coupons discount the gross
 *   price, and the tax is taken out of it (WC_Tax::calc_inclusive_tax, per line), so subtotals,
 *   totals and coupon amounts are reported net of tax, as WC_Cart_Totals does
 *   (includes/class-wc-cart-totals.php calculate_item_subtotals / calculate_item_totals).
 */
import type { Address, LineTax, ShippingMethodInstance, SimCoupon, SimProduct, TaxRate } from './model.js';
import type { WooStore } from './store.js';
import { baseAddress, pickupEnabled, pickupRates, pickupTaxAddress } from './local-pickup.js';

export interface PricingItem {
  key: string;
  productId: number;
  variationId: number;
  quantity: number;
  unitPrice: number;
  virtual: boolean;
  shippingClass: string;
  categoryIds: number[];
  name: string;
}

interface PricedItem extends PricingItem {
  subtotal: number;
  total: number;
  taxes: LineTax[];
}

export interface PricedRate {
  rateId: string;
  instance: ShippingMethodInstance;
  cost: number;
  taxes: LineTax[];
  /** The rate's own meta (Local Pickup: pickup_location, pickup_address, pickup_details). */
  meta: Array<{ key: string; value: string }>;
}

export interface PricedPackage {
  packageId: number;
  name: string;
  itemKeys: string[];
  rates: PricedRate[];
  chosen: PricedRate | undefined;
}

export interface Priced {
  items: PricedItem[];
  coupons: Array<{ coupon: SimCoupon; discount: number; discountTax: number }>;
  packages: PricedPackage[];
  needsShipping: boolean;
  hasCalculatedShipping: boolean;
  taxRates: TaxRate[];
  totals: {
    items: number;
    itemsTax: number;
    discount: number;
    discountTax: number;
    shipping: number;
    shippingTax: number;
    tax: number;
    total: number;
  };
}

export interface PricingInput {
  items: PricingItem[];
  coupons: SimCoupon[];
  shipping: Pick<Address, 'country' | 'state' | 'postcode'> | null;
  billing: Pick<Address, 'country' | 'state' | 'postcode'> | null;
  /** Chosen rate per package id. */
  chosenRates: Record<number, string>;
  /** Split packages by shipping class (a multiple-packages plugin); core ships one package. */
  packagesByClass: boolean;
}

const COUPON_SORT = { fixed_product: 1, percent: 2, fixed_cart: 3 } as const;

function eligible(coupon: SimCoupon, item: PricingItem): boolean {
  const ids = [item.productId, item.variationId];
  if (coupon.productIds.length && !coupon.productIds.some((id) => ids.includes(id))) return false;
  if (coupon.excludedProductIds.some((id) => ids.includes(id))) return false;
  if (coupon.productCategories.length && !coupon.productCategories.some((c) => item.categoryIds.includes(c))) return false;
  if (coupon.excludedProductCategories.some((c) => item.categoryIds.includes(c))) return false;
  return true;
}

/** The coupon applies to some item of the cart (WC_Discounts::validate_coupon_product_ids and friends). */
export function couponFitsCart(coupon: SimCoupon, items: PricingItem[]): boolean {
  if (!coupon.productIds.length && !coupon.productCategories.length) return true;
  return items.some((item) => eligible(coupon, item));
}

/** Hands out `amount` a cent per unit, in item order, never below zero (apply_coupon_remainder). */
function remainder(lines: Array<{ item: PricingItem; left: () => number; add: (n: number) => void }>, amount: number): number {
  let given = 0;
  for (const line of lines) {
    for (let unit = 0; unit < line.item.quantity && given < amount; unit++) {
      const cent = Math.min(line.left(), 1);
      line.add(cent);
      given += cent;
    }
    if (given >= amount) break;
  }
  return given;
}

function applyCoupons(items: PricingItem[], coupons: SimCoupon[]): { discounts: Map<string, Map<string, number>> } {
  const sorted = [...items].sort((a, b) => b.unitPrice * b.quantity - a.unitPrice * a.quantity);
  const taken = new Map(items.map((i) => [i.key, 0]));
  const discounts = new Map<string, Map<string, number>>();
  const order = [...coupons].sort((a, b) => COUPON_SORT[a.discountType] - COUPON_SORT[b.discountType]);
  for (const coupon of order) {
    const perItem = new Map<string, number>();
    discounts.set(coupon.code, perItem);
    const lines = sorted
      .filter((item) => eligible(coupon, item))
      .map((item) => ({
        item,
        price: item.unitPrice * item.quantity,
        left: () => item.unitPrice * item.quantity - taken.get(item.key)!,
        add: (n: number) => {
          taken.set(item.key, taken.get(item.key)! + n);
          perItem.set(item.key, (perItem.get(item.key) ?? 0) + n);
        },
      }));
    const amount = Number(coupon.amount);
    if (coupon.discountType === 'percent') {
      let total = 0;
      let base = 0;
      for (const line of lines) {
        const discount = Math.min(line.left(), Math.floor((line.price * amount) / 100));
        line.add(discount);
        total += discount;
        base += line.price;
      }
      const wanted = Math.round((base * amount) / 100);
      if (total < wanted) remainder(lines, wanted - total);
    } else if (coupon.discountType === 'fixed_product') {
      for (const line of lines) line.add(Math.min(line.left(), amount * line.item.quantity));
    } else {
      let left = amount;
      while (left > 0) {
        const units = lines.reduce((n, l) => n + (l.left() > 0 ? l.item.quantity : 0), 0);
        if (!units) break;
        const perUnit = Math.floor(left / units);
        let given = 0;
        if (perUnit > 0) {
          for (const line of lines) {
            const discount = Math.min(line.left(), perUnit * line.item.quantity);
            line.add(discount);
            given += discount;
          }
        } else {
          given = remainder(lines, left);
        }
        if (given === 0) break;
        left -= given;
      }
    }
  }
  return { discounts };
}

/** The first matching rate per priority, most specific first (WC_Tax::find_rates). */
function matchTaxRates(store: WooStore, address: Pick<Address, 'country' | 'state'> | null): TaxRate[] {
  if (!address?.country) return [];
  const matches = store.taxRates.filter((r) => r.country === address.country && (r.state === '' || r.state === address.state));
  const byPriority = new Map<number, TaxRate>();
  for (const rate of [...matches].sort((a, b) => b.state.length - a.state.length)) {
    if (!byPriority.has(rate.priority)) byPriority.set(rate.priority, rate);
  }
  return [...byPriority.values()];
}

const taxOn = (amount: number, rates: TaxRate[]): LineTax[] =>
  rates.map((r) => ({
    rateId: r.id,
    total: Math.round((amount * Number(r.rate)) / 100),
    subtotal: Math.round((amount * Number(r.rate)) / 100),
  }));

function matchZone(store: WooStore, address: Pick<Address, 'country' | 'state' | 'postcode'>) {
  const zones = [...store.zones].sort((a, b) => a.order - b.order);
  return (
    zones.find((z) =>
      z.locations.some(
        (l) =>
          (l.type === 'country' && l.code === address.country) || (l.type === 'state' && l.code === `${address.country}:${address.state}`),
      ),
    ) ?? zones.find((z) => z.id === 0)!
  );
}

function freeShippingAvailable(method: ShippingMethodInstance, coupons: SimCoupon[], spend: number): boolean {
  const hasCoupon = coupons.some((c) => c.freeShipping);
  const hasMinimum = spend >= method.minAmount;
  switch (method.requires) {
    case 'coupon':
      return hasCoupon;
    case 'min_amount':
      return hasMinimum;
    case 'either':
      return hasCoupon || hasMinimum;
    case 'both':
      return hasCoupon && hasMinimum;
    default:
      return true;
  }
}

/** The tax in a gross amount, per rate (WC_Tax::calc_inclusive_tax for simple rates), rounded. */
function inclusiveTaxes(gross: number, rates: TaxRate[]): number[] {
  const percent = rates.reduce((n, r) => n + Number(r.rate), 0);
  return rates.map((r) => Math.round((gross * Number(r.rate)) / (100 + percent)));
}

/**
 * A unit price as the Store API's cart item `prices` show it: `woocommerce_tax_display_cart`
 * decides (src/StoreApi/Schemas/V1/CartItemSchema.php passes it to prepare_product_price_response),
 * whatever way the price was entered.
 */
export function displayedUnitPrice(store: WooStore, unitPrice: number, rates: TaxRate[]): number {
  const { pricesIncludeTax, taxDisplayCart } = store.settings;
  if (pricesIncludeTax && taxDisplayCart === 'excl') return unitPrice - inclusiveTaxes(unitPrice, rates).reduce((a, b) => a + b, 0);
  if (!pricesIncludeTax && taxDisplayCart === 'incl')
    return unitPrice + rates.reduce((n, r) => n + Math.round((unitPrice * Number(r.rate)) / 100), 0);
  return unitPrice;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** WC_Cart_Totals::calculate_item_subtotals / calculate_item_totals for the tax rates given. */
function priceItems(store: WooStore, input: PricingInput, discounts: Map<string, Map<string, number>>, taxRates: TaxRate[]): PricedItem[] {
  return input.items.map((item) => {
    const entered = item.unitPrice * item.quantity;
    const discount = [...discounts.values()].reduce((n, m) => n + (m.get(item.key) ?? 0), 0);
    if (store.settings.pricesIncludeTax) {
      const subtotalTaxes = inclusiveTaxes(entered, taxRates);
      const totalTaxes = inclusiveTaxes(entered - discount, taxRates);
      const taxes = taxRates.map((r, i) => ({ rateId: r.id, subtotal: subtotalTaxes[i]!, total: totalTaxes[i]! }));
      return { ...item, subtotal: entered - sum(subtotalTaxes), total: entered - discount - sum(totalTaxes), taxes };
    }
    const subtotal = entered;
    const total = subtotal - discount;
    const taxes = taxRates.map((r) => ({
      rateId: r.id,
      subtotal: Math.round((subtotal * Number(r.rate)) / 100),
      total: Math.round((total * Number(r.rate)) / 100),
    }));
    return { ...item, subtotal, total, taxes };
  });
}

/**
 * WC_Shipping::calculate_shipping: one package (or one per shipping class with a multiple-packages
 * plugin) to the destination's zone, its methods' rates and then Local Pickup's (local-pickup.ts),
 * the chosen rate the one the session holds if offered, else the first.
 */
function buildPackages(
  store: WooStore,
  input: PricingInput,
  items: PricedItem[],
  destination: Pick<Address, 'country' | 'state' | 'postcode'>,
  shippingTaxRates: TaxRate[],
): PricedPackage[] {
  const shippable = items.filter((i) => !i.virtual);
  const groups = input.packagesByClass
    ? [...new Set(shippable.map((i) => i.shippingClass))].map((cls) => shippable.filter((i) => i.shippingClass === cls))
    : [shippable];
  const zone = matchZone(store, destination);
  return groups.map((group, packageId) => {
    const classes = new Set(group.map((i) => i.shippingClass));
    const spend = sum(group.map((i) => i.total));
    const rates: PricedRate[] = zone.methods
      .filter((m) => !m.excludedClasses.some((c) => classes.has(c)))
      .filter((m) => m.methodId !== 'free_shipping' || freeShippingAvailable(m, input.coupons, spend))
      .map((m) => ({
        rateId: `${m.methodId}:${m.instanceId}`,
        instance: m,
        cost: m.cost,
        taxes: taxOn(m.cost, shippingTaxRates),
        meta: [],
      }));
    rates.push(...pickupRates(store).map((r) => ({ ...r, taxes: taxOn(r.cost, shippingTaxRates) })));
    const chosen = rates.find((r) => r.rateId === input.chosenRates[packageId]) ?? rates[0];
    return { packageId, name: `Shipment ${packageId + 1}`, itemKeys: group.map((i) => i.key), rates, chosen };
  });
}

export function price(store: WooStore, input: PricingInput): Priced {
  const { discounts } = applyCoupons(input.items, input.coupons);
  const inclusive = store.settings.pricesIncludeTax;
  const needsShipping = input.items.some((i) => !i.virtual);
  // With Local Pickup on, rates are shown before any address, for the store's base location
  // (ShippingController::override_cost_requires_address_option, local-pickup.ts).
  const destination = input.shipping?.country ? input.shipping : pickupEnabled(store) ? baseAddress(store) : null;
  const hasCalculatedShipping = needsShipping && Boolean(destination);
  const priceWith = (taxRates: TaxRate[]) => {
    const items = priceItems(store, input, discounts, taxRates);
    const shippingTaxRates = taxRates.filter((r) => r.shipping);
    const packages = hasCalculatedShipping ? buildPackages(store, input, items, destination!, shippingTaxRates) : [];
    return { items, packages, taxRates };
  };
  let { items, packages, taxRates } = priceWith(matchTaxRates(store, input.shipping?.country ? input.shipping : input.billing));
  // A chosen pickup location is the address taxes are calculated for (ShippingController::filter_taxable_address).
  const pickupAddress = pickupTaxAddress(store, packages[0]?.chosen?.rateId);
  if (pickupAddress) ({ items, packages, taxRates } = priceWith(matchTaxRates(store, pickupAddress)));
  const itemsTotal = sum(items.map((i) => i.subtotal));
  const itemsDiscounted = sum(items.map((i) => i.total));
  const discountTax = sum(items.flatMap((i) => i.taxes.map((t) => t.subtotal - t.total)));
  const discountTotal = itemsTotal - itemsDiscounted;

  const shipping = sum(packages.map((p) => p.chosen?.cost ?? 0));
  const shippingTax = sum(packages.flatMap((p) => (p.chosen?.taxes ?? []).map((t) => t.total)));
  const itemsTax = sum(items.flatMap((i) => i.taxes.map((t) => t.subtotal)));
  const cartTax = sum(items.flatMap((i) => i.taxes.map((t) => t.total)));

  const couponTotals = input.coupons.map((coupon) => {
    const given = [...(discounts.get(coupon.code)?.values() ?? [])];
    // With gross prices the coupon took tax off too: its amount is reported net of that tax.
    const discount = inclusive ? sum(given.map((d) => d - sum(inclusiveTaxes(d, taxRates)))) : sum(given);
    return { coupon, discount, discountTax: discountTotal ? Math.round((discountTax * discount) / discountTotal) : 0 };
  });

  return {
    items,
    coupons: couponTotals,
    packages,
    needsShipping,
    hasCalculatedShipping,
    taxRates,
    totals: {
      items: itemsTotal,
      itemsTax,
      discount: discountTotal,
      discountTax,
      shipping,
      shippingTax,
      tax: cartTax + shippingTax,
      total: itemsDiscounted + cartTax + shipping + shippingTax,
    },
  };
}

/** A line of a cart or an order as the pricing sees it. */
export function pricingItem(store: WooStore, key: string, id: number, quantity: number): PricingItem | undefined {
  const found = store.purchasable(id);
  if (!found) return undefined;
  const product: SimProduct = found.product;
  return {
    key,
    productId: product.id,
    variationId: found.variation?.id ?? 0,
    quantity,
    unitPrice: found.item.price,
    virtual: found.item.virtual,
    shippingClass: found.item.shippingClass,
    categoryIds: product.categoryIds,
    name: product.name,
  };
}
