/**
 * What the simulated WooCommerce store holds. Amounts are integers in minor units internally;
 * the REST shapes (shapes/*.ts) render them as WooCommerce does: decimal strings in `wc/v3`,
 * minor-unit integer strings in `wc/store/v1`.
 */

export interface Term {
  id: number;
  name: string;
  slug: string;
}

export interface Image {
  id: number;
  src: string;
  name: string;
  alt: string;
}

export interface Meta {
  id: number;
  key: string;
  value: unknown;
}

export type StockStatus = 'instock' | 'outofstock' | 'onbackorder';

/** What simple products and variations share: the purchasable item. */
export interface Purchasable {
  id: number;
  sku: string;
  /** Regular price in minor units. */
  price: number;
  manageStock: boolean;
  stockQuantity: number | null;
  /** Set when stock is not managed (managed stock derives it from quantity and backorders). */
  stockStatus: StockStatus;
  backorders: 'no' | 'notify' | 'yes';
  virtual: boolean;
  downloadable: boolean;
  shippingClass: string;
  meta: Meta[];
  menuOrder: number;
  dateCreated: Date;
  dateModified: Date;
}

interface ProductAttribute {
  name: string;
  position: number;
  visible: boolean;
  variation: boolean;
  options: string[];
}

export interface SimProduct extends Purchasable {
  type: 'simple' | 'variable';
  name: string;
  slug: string;
  description: string;
  shortDescription: string;
  categoryIds: number[];
  tagIds: number[];
  images: Image[];
  attributes: ProductAttribute[];
  defaultAttributes: Array<{ name: string; option: string }>;
  variationIds: number[];
  averageRating: string;
  ratingCount: number;
}

export interface SimVariation extends Purchasable {
  parentId: number;
  image: Image | null;
  /** One per variation attribute of the parent; option '' = any value of that attribute. */
  attributes: Array<{ name: string; option: string }>;
}

export interface SimCoupon {
  id: number;
  /** Lower-cased, as WooCommerce stores codes. */
  code: string;
  /** Minor units for fixed types, percent (may be fractional, kept as string) for percent. */
  amount: string;
  discountType: 'percent' | 'fixed_cart' | 'fixed_product';
  description: string;
  dateExpires: Date | null;
  usageCount: number;
  usageLimit: number | null;
  usageLimitPerUser: number | null;
  individualUse: boolean;
  productIds: number[];
  excludedProductIds: number[];
  productCategories: number[];
  excludedProductCategories: number[];
  excludeSaleItems: boolean;
  freeShipping: boolean;
  /** Minor units; 0 = none. */
  minimumAmount: number;
  maximumAmount: number;
  emailRestrictions: string[];
  usedBy: string[];
  dateCreated: Date;
}

interface ZoneLocation {
  code: string;
  type: 'country' | 'state' | 'postcode' | 'continent';
}

export interface ShippingMethodInstance {
  instanceId: number;
  methodId: 'flat_rate' | 'free_shipping' | 'pickup_location';
  title: string;
  /** flat_rate: minor units per package. */
  cost: number;
  /** free_shipping: '' | 'coupon' | 'min_amount' | 'either' | 'both'. */
  requires: '' | 'coupon' | 'min_amount' | 'either' | 'both';
  minAmount: number;
  /** Shown as the Store API rate description. */
  description: string;
  deliveryTime: string;
  /**
   * Shipping classes this method refuses. Core flat rate cannot refuse a class; stores do it with
   * a conditional-shipping plugin (fresh flowers that cannot travel abroad).
   */
  excludedClasses: string[];
}

export interface ShippingZone {
  id: number;
  name: string;
  order: number;
  /** Empty for zone 0 ("Locations not covered by your other zones"). */
  locations: ZoneLocation[];
  methods: ShippingMethodInstance[];
}

export interface TaxRate {
  id: number;
  country: string;
  /** '' = any state. */
  state: string;
  /** Percent as WooCommerce stores it ("6.2500"). */
  rate: string;
  name: string;
  priority: number;
  compound: boolean;
  shipping: boolean;
}

export interface Address {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  phone: string;
}

export type BillingAddress = Address & { email: string };

export interface LineTax {
  rateId: number;
  total: number;
  subtotal: number;
}

interface OrderLine {
  id: number;
  name: string;
  productId: number;
  variationId: number;
  quantity: number;
  /** Unit price, minor units. */
  price: number;
  subtotal: number;
  total: number;
  taxes: LineTax[];
  sku: string;
  meta: Meta[];
  image: { id: number; src: string } | null;
  parentName: string | null;
}

interface ShippingLine {
  id: number;
  methodTitle: string;
  methodId: string;
  instanceId: string;
  total: number;
  taxes: LineTax[];
  meta: Meta[];
}

interface CouponLine {
  id: number;
  code: string;
  discount: number;
  discountTax: number;
}

interface TaxLine {
  id: number;
  rateId: number;
  rateCode: string;
  label: string;
  compound: boolean;
  taxTotal: number;
  shippingTaxTotal: number;
  ratePercent: number;
}

export interface Refund {
  id: number;
  dateCreated: Date;
  /** Positive minor units. */
  amount: number;
  reason: string;
  refundedBy: number;
  refundedPayment: boolean;
  lines: Array<{ lineId: number; quantity: number; total: number }>;
}

export interface OrderNote {
  id: number;
  author: string;
  dateCreated: Date;
  note: string;
  customerNote: boolean;
}

export interface Fulfillment {
  id: number;
  status: 'unfulfilled' | 'fulfilled';
  isFulfilled: boolean;
  dateUpdated: Date;
  items: Array<{ item_id: number; qty: number }>;
  trackingNumber: string;
  provider: string;
  trackingUrl: string;
}

export type OrderStatus =
  'pending' | 'processing' | 'on-hold' | 'completed' | 'cancelled' | 'refunded' | 'failed' | 'checkout-draft' | 'trash';

export interface SimOrder {
  id: number;
  orderKey: string;
  createdVia: 'rest-api' | 'store-api' | 'checkout';
  status: OrderStatus;
  currency: string;
  dateCreated: Date;
  dateModified: Date;
  datePaid: Date | null;
  dateCompleted: Date | null;
  customerId: number;
  customerNote: string;
  billing: BillingAddress;
  shipping: Address;
  paymentMethod: string;
  paymentMethodTitle: string;
  transactionId: string;
  meta: Meta[];
  lines: OrderLine[];
  shippingLines: ShippingLine[];
  couponLines: CouponLine[];
  taxLines: TaxLine[];
  refunds: Refund[];
  notes: OrderNote[];
  fulfillments: Fulfillment[];
  /** Totals as calculated when the order was (re)computed. */
  discountTotal: number;
  shippingTotal: number;
  cartTax: number;
  shippingTax: number;
  total: number;
  /** WC_Cart::get_cart_hash of the cart a Store API order was made from ('' otherwise). */
  cartHash: string;
  /** The stock hold of a placed order (wc_reserved_stock `expires`); counts while draft or pending. */
  stockHeldUntil: Date | null;
}

export interface SimWebhook {
  id: number;
  name: string;
  status: 'active' | 'paused' | 'disabled';
  topic: string;
  deliveryUrl: string;
  secret: string;
  failureCount: number;
  pendingDelivery: boolean;
  dateCreated: Date;
  dateModified: Date;
}

export interface PaymentGateway {
  id: string;
  title: string;
  /** Charges cards passed in payment_data (`token`); others leave the order awaiting payment. */
  charges: boolean;
}

export interface StoreSettings {
  currency: string;
  currencySymbol: string;
  /** woocommerce_price_num_decimals: the store's own exponent, not always ISO 4217's. */
  decimals: number;
  /** Base location ("US:IL"), for status and display. */
  baseLocation: string;
  /** woocommerce_prices_include_tax: catalog prices are entered gross, tax is taken out of them. */
  pricesIncludeTax: boolean;
  /** woocommerce_tax_display_cart: the Store API's cart item `prices` include tax ('incl') or not. */
  taxDisplayCart: 'excl' | 'incl';
  /** wp_timezone(): `timezone_string` (IANA name) or, without one, `gmt_offset` written "-05:00". */
  timezone: string;
  /** woocommerce_hold_stock_minutes: how long a placed, unpaid order holds its stock (60). */
  holdStockMinutes: number;
  /** The checkout block's Local Pickup (woocommerce_pickup_location_settings, pickup_location_pickup_locations). */
  localPickup: LocalPickupSettings;
}

/** One pickup location (Settings → Shipping → Local pickup), as the `pickup_location` method reads it. */
export interface PickupLocation {
  name: string;
  address: Pick<Address, 'address_1' | 'city' | 'state' | 'postcode' | 'country'>;
  details: string;
  enabled: boolean;
}

export interface LocalPickupSettings {
  enabled: boolean;
  /** The method's title; each rate is labelled "<title> (<location name>)". */
  title: string;
  /** Minor units, the same for every location. */
  cost: number;
  locations: PickupLocation[];
}
