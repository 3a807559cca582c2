/**
 * Store API (`wc/store/v1`) cart, cart item, coupon and shipping-rate shapes, field by field as
 * plugins/woocommerce/src/StoreApi/Schemas/V1/CartSchema.php, CartItemSchema.php,
 * CartCouponSchema.php and CartShippingRateSchema.php build them and as the example in
 * plugins/woocommerce/src/StoreApi/docs/cart.md shows. Amounts are integer strings in the
 * currency's minor unit, next to `currency_minor_unit` (AbstractSchema::prepare_money_response).
 */
import type { Address, BillingAddress } from '../model.js';
import { displayedUnitPrice, type Priced, type PricedPackage, type PricedRate } from '../pricing.js';
import type { WooStore } from '../store.js';
import { productPermalink } from './rest-product.js';

export interface CartLine {
  key: string;
  id: number;
  quantity: number;
  variation: Array<{ attribute: string; value: string }>;
}

export interface CartView {
  lines: CartLine[];
  priced: Priced;
  shipping: Address;
  billing: BillingAddress;
  errors: Array<{ code: string; message: string }>;
}

function currencyFields(store: WooStore) {
  return {
    currency_code: store.settings.currency,
    currency_symbol: store.settings.currencySymbol,
    currency_minor_unit: store.settings.decimals,
    currency_decimal_separator: '.',
    currency_thousand_separator: ',',
    currency_prefix: store.settings.currencySymbol,
    currency_suffix: '',
  };
}

const minor = (n: number) => String(n);

/** CartItemSchema::get_item_response: one line, as `/cart` lists it and `/cart/items` answers it. */
export function itemShape(store: WooStore, line: CartLine, priced: Priced) {
  const found = store.purchasable(line.id)!;
  const item = priced.items.find((i) => i.key === line.key)!;
  const { product, variation } = found;
  const images = (variation?.image ? [variation.image] : product.images).map((img) => ({
    id: img.id,
    src: img.src,
    thumbnail: img.src,
    srcset: '',
    sizes: '',
    name: img.name,
    alt: img.alt,
  }));
  const managed = found.item.manageStock && found.item.backorders === 'no';
  const stock = found.item.stockQuantity ?? 0;
  const shown = displayedUnitPrice(store, found.item.price, priced.taxRates);
  const price = minor(shown);
  const raw = String(shown * 10 ** (6 - store.settings.decimals));
  return {
    key: line.key,
    id: line.id,
    type: variation ? 'variation' : product.type,
    quantity: line.quantity,
    quantity_limits: { minimum: 1, maximum: managed ? Math.min(9999, stock) : 9999, multiple_of: 1, editable: true },
    name: product.name,
    short_description: product.shortDescription,
    description: product.description,
    sku: found.item.sku,
    low_stock_remaining: managed && stock <= 2 ? stock : null,
    backorders_allowed: found.item.backorders !== 'no',
    show_backorder_badge: found.item.manageStock && found.item.backorders !== 'no' && line.quantity > stock,
    sold_individually: false,
    permalink: productPermalink(store, product),
    images,
    variation: line.variation.map((v) => ({
      raw_attribute: `attribute_${v.attribute.toLowerCase()}`,
      attribute: v.attribute,
      value: v.value,
    })),
    item_data: [],
    prices: {
      price,
      regular_price: price,
      sale_price: price,
      price_range: null,
      ...currencyFields(store),
      raw_prices: { precision: 6, price: raw, regular_price: raw, sale_price: raw },
    },
    totals: {
      line_subtotal: minor(item.subtotal),
      line_subtotal_tax: minor(item.taxes.reduce((n, t) => n + t.subtotal, 0)),
      line_total: minor(item.total),
      line_total_tax: minor(item.taxes.reduce((n, t) => n + t.total, 0)),
      ...currencyFields(store),
    },
    catalog_visibility: 'visible',
    extensions: {},
  };
}

/** CartCouponSchema::get_item_response: an applied coupon, as `/cart` lists it and `/cart/coupons` answers it. */
export function couponShape(store: WooStore, c: Priced['coupons'][number]) {
  return {
    code: c.coupon.code,
    discount_type: c.coupon.discountType,
    totals: { total_discount: minor(c.discount), total_discount_tax: minor(c.discountTax), ...currencyFields(store) },
  };
}

function rateShape(store: WooStore, rate: PricedRate, pkg: PricedPackage, names: string) {
  return {
    rate_id: rate.rateId,
    name: rate.instance.title,
    description: rate.instance.description,
    delivery_time: rate.instance.deliveryTime,
    price: minor(rate.cost),
    taxes: minor(rate.taxes.reduce((n, t) => n + t.total, 0)),
    instance_id: rate.instance.instanceId,
    method_id: rate.instance.methodId,
    // WC_Shipping_Method::add_rate: the rate's own meta, then the package's items.
    meta_data: [...rate.meta, { key: 'Items', value: names }],
    selected: pkg.chosen?.rateId === rate.rateId,
    ...currencyFields(store),
  };
}

function packageShape(store: WooStore, view: CartView, pkg: PricedPackage) {
  const items = pkg.itemKeys.map((key) => {
    const line = view.lines.find((l) => l.key === key)!;
    return { key, name: store.purchasable(line.id)!.product.name, quantity: line.quantity };
  });
  const names = items.map((i) => `${i.name} &times; ${i.quantity}`).join(', ');
  const { address_1, address_2, city, state, postcode, country } = view.shipping;
  return {
    package_id: pkg.packageId,
    name: pkg.name,
    destination: { address_1, address_2, city, state, postcode, country },
    items,
    shipping_rates: pkg.rates.map((r) => rateShape(store, r, pkg, names)),
  };
}

export function cartShape(store: WooStore, view: CartView) {
  const { priced } = view;
  const t = priced.totals;
  const taxLines = priced.taxRates.map((rate) => {
    const onItems = priced.items.reduce((n, i) => n + (i.taxes.find((x) => x.rateId === rate.id)?.total ?? 0), 0);
    const onShipping = priced.packages.reduce((n, p) => n + (p.chosen?.taxes.find((x) => x.rateId === rate.id)?.total ?? 0), 0);
    return { name: rate.name, price: minor(onItems + onShipping), rate: `${Number(rate.rate)}%` };
  });
  return {
    items: view.lines.map((line) => itemShape(store, line, priced)),
    coupons: priced.coupons.map((c) => couponShape(store, c)),
    fees: [],
    totals: {
      total_items: minor(t.items),
      total_items_tax: minor(t.itemsTax),
      total_fees: '0',
      total_fees_tax: '0',
      total_discount: minor(t.discount),
      total_discount_tax: minor(t.discountTax),
      total_shipping: priced.hasCalculatedShipping ? minor(t.shipping) : null,
      total_shipping_tax: priced.hasCalculatedShipping ? minor(t.shippingTax) : null,
      total_price: minor(t.total),
      total_tax: minor(t.tax),
      tax_lines: taxLines,
      ...currencyFields(store),
    },
    shipping_address: view.shipping,
    billing_address: view.billing,
    needs_payment: t.total > 0,
    needs_shipping: priced.needsShipping,
    payment_requirements: ['products'],
    has_calculated_shipping: priced.hasCalculatedShipping,
    shipping_rates: priced.packages.map((p) => packageShape(store, view, p)),
    items_count: view.lines.reduce((n, l) => n + l.quantity, 0),
    items_weight: 0,
    cross_sells: [],
    errors: view.errors,
    payment_methods: store.gateways.map((g) => g.id),
    extensions: {},
  };
}
