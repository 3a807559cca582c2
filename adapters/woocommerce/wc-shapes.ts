/**
 * The parts of WooCommerce's answers this adapter reads, as schemas: each answer is checked
 * before use, so a store (or a plugin) answering another shape is a clear
 * InvalidAnswerError, never a TypeError further in. Unknown members pass.
 * Fields as in woocommerce-rest-api-docs (wp-api-v3/_products.md, _product-variations.md,
 * _coupons.md, _orders.md, _order-refunds.md, _webhooks.md, _system-status.md), the order
 * fulfillments API, the Shipment Tracking extension and the Store API schemas
 * (plugins/woocommerce/src/StoreApi/Schemas/V1/CartSchema.php, CartItemSchema.php,
 * CartShippingRateSchema.php, CheckoutSchema.php).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { compile, type Validator } from '../../schemas/validator.js';
import { InvalidAnswerError } from '../contract.js';

const Decimal = Type.String();
const Term = Type.Object({ id: Type.Integer(), name: Type.String() });
const Image = Type.Object({ id: Type.Integer(), src: Type.String(), alt: Type.Optional(Type.String()) });
const Meta = Type.Object({ key: Type.String(), value: Type.Unknown() });
const StockStatus = Type.String();

export const WcProduct = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  permalink: Type.String(),
  type: Type.String(),
  description: Type.String(),
  short_description: Type.String(),
  sku: Type.String(),
  price: Decimal,
  virtual: Type.Boolean(),
  manage_stock: Type.Boolean(),
  stock_quantity: Type.Union([Type.Integer(), Type.Null()]),
  stock_status: StockStatus,
  backorders: Type.String(),
  average_rating: Type.String(),
  rating_count: Type.Integer(),
  categories: Type.Array(Term),
  tags: Type.Array(Term),
  images: Type.Array(Image),
  attributes: Type.Array(Type.Object({ name: Type.String(), variation: Type.Boolean(), options: Type.Array(Type.String()) })),
  default_attributes: Type.Array(Type.Object({ name: Type.String(), option: Type.String() })),
  variations: Type.Array(Type.Integer()),
  date_modified_gmt: Type.Union([Type.String(), Type.Null()]),
  meta_data: Type.Array(Meta),
});
export type WcProduct = Static<typeof WcProduct>;

export const WcVariation = Type.Object({
  id: Type.Integer(),
  sku: Type.String(),
  price: Decimal,
  permalink: Type.String(),
  virtual: Type.Boolean(),
  manage_stock: Type.Union([Type.Boolean(), Type.Literal('parent')]),
  stock_quantity: Type.Union([Type.Integer(), Type.Null()]),
  stock_status: StockStatus,
  backorders: Type.String(),
  image: Type.Union([Image, Type.Null()]),
  attributes: Type.Array(Type.Object({ name: Type.String(), option: Type.String() })),
  menu_order: Type.Integer(),
  meta_data: Type.Array(Meta),
  parent_id: Type.Optional(Type.Integer()),
  type: Type.Optional(Type.String()),
});
export type WcVariation = Static<typeof WcVariation>;

const WcCategory = Type.Object({ id: Type.Integer(), name: Type.String(), slug: Type.String() });

export const WcCoupon = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  discount_type: Type.String(),
  description: Type.String(),
  date_expires_gmt: Type.Union([Type.String(), Type.Null()]),
  usage_count: Type.Integer(),
  usage_limit: Type.Union([Type.Integer(), Type.Null()]),
  usage_limit_per_user: Type.Union([Type.Integer(), Type.Null()]),
  individual_use: Type.Boolean(),
  product_ids: Type.Array(Type.Integer()),
  excluded_product_ids: Type.Array(Type.Integer()),
  product_categories: Type.Array(Type.Integer()),
  excluded_product_categories: Type.Array(Type.Integer()),
  exclude_sale_items: Type.Boolean(),
  minimum_amount: Decimal,
  maximum_amount: Decimal,
  email_restrictions: Type.Array(Type.String()),
});
export type WcCoupon = Static<typeof WcCoupon>;

const Address = Type.Object({
  first_name: Type.String(),
  last_name: Type.String(),
  address_1: Type.String(),
  address_2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  postcode: Type.String(),
  country: Type.String(),
});

export const WcOrder = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  currency: Type.String({ pattern: '^[A-Z]{3}$' }),
  order_key: Type.String(),
  date_created_gmt: Type.String(),
  date_modified_gmt: Type.Union([Type.String(), Type.Null()]),
  date_paid_gmt: Type.Union([Type.String(), Type.Null()]),
  /** The store's woocommerce_prices_include_tax when the order was made: line prices entered gross. */
  prices_include_tax: Type.Boolean(),
  discount_total: Decimal,
  discount_tax: Decimal,
  shipping_total: Decimal,
  shipping_tax: Decimal,
  cart_tax: Decimal,
  total: Decimal,
  total_tax: Decimal,
  tax_lines: Type.Array(Type.Object({ label: Type.String(), tax_total: Decimal, shipping_tax_total: Decimal })),
  payment_url: Type.Optional(Type.String()),
  billing: Type.Object({ email: Type.Union([Type.String(), Type.Null()]) }),
  shipping: Address,
  meta_data: Type.Array(Meta),
  line_items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      product_id: Type.Integer(),
      variation_id: Type.Integer(),
      quantity: Type.Integer(),
      subtotal: Decimal,
      subtotal_tax: Decimal,
      total: Decimal,
      total_tax: Decimal,
      sku: Type.Union([Type.String(), Type.Null()]),
      meta_data: Type.Array(Meta),
      image: Type.Optional(Type.Object({ src: Type.Union([Type.String(), Type.Integer()]) })),
    }),
  ),
  shipping_lines: Type.Array(Type.Object({ method_title: Type.String(), total: Decimal })),
  coupon_lines: Type.Array(Type.Object({ code: Type.String(), discount: Decimal })),
  refunds: Type.Array(Type.Object({ id: Type.Integer(), reason: Type.String(), total: Decimal })),
});
export type WcOrder = Static<typeof WcOrder>;

export const WcRefund = Type.Object({
  id: Type.Integer(),
  date_created_gmt: Type.String(),
  amount: Decimal,
  reason: Type.String(),
  line_items: Type.Array(Type.Object({ quantity: Type.Integer(), meta_data: Type.Array(Meta) })),
});
export type WcRefund = Static<typeof WcRefund>;

export const WcFulfillment = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  is_fulfilled: Type.Boolean(),
  date_updated: Type.Union([Type.String(), Type.Null()]),
  meta_data: Type.Array(Meta),
});
export type WcFulfillment = Static<typeof WcFulfillment>;

export const WcTrackingItem = Type.Object({
  tracking_id: Type.String(),
  tracking_provider: Type.String(),
  tracking_link: Type.String(),
  tracking_number: Type.String(),
  date_shipped: Type.Union([Type.String(), Type.Integer()]),
});
export type WcTrackingItem = Static<typeof WcTrackingItem>;

export const WcWebhook = Type.Object({ id: Type.Integer(), status: Type.String(), topic: Type.String(), delivery_url: Type.String() });
export type WcWebhook = Static<typeof WcWebhook>;

export const WcSystemStatus = Type.Object({
  settings: Type.Object({ currency: Type.String({ pattern: '^[A-Z]{3}$' }), number_of_decimals: Type.Integer({ minimum: 0, maximum: 8 }) }),
});

export const WcEnvironment = Type.Object({ environment: Type.Object({ version: Type.String({ minLength: 1 }) }) });

const Money = Type.String({ pattern: '^-?\\d+$' });
const Currency = { currency_code: Type.String(), currency_minor_unit: Type.Integer() };

export const StoreCart = Type.Object({
  errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
  items: Type.Array(
    Type.Object({
      key: Type.String(),
      id: Type.Integer(),
      quantity: Type.Integer(),
      name: Type.String(),
      sku: Type.String(),
      images: Type.Array(Type.Object({ src: Type.String() })),
      variation: Type.Array(Type.Object({ attribute: Type.String(), value: Type.String() })),
      prices: Type.Object({ price: Money, ...Currency }),
      totals: Type.Object({ line_subtotal: Money, line_subtotal_tax: Money, line_total: Money, line_total_tax: Money }),
    }),
  ),
  coupons: Type.Array(
    Type.Object({
      code: Type.String(),
      discount_type: Type.String(),
      totals: Type.Object({ total_discount: Money, total_discount_tax: Money }),
    }),
  ),
  totals: Type.Object({
    total_items: Money,
    total_discount: Money,
    total_shipping: Type.Union([Money, Type.Null()]),
    total_shipping_tax: Type.Union([Money, Type.Null()]),
    total_tax: Money,
    total_price: Money,
    tax_lines: Type.Array(Type.Object({ name: Type.String(), price: Money })),
    ...Currency,
  }),
  shipping_address: Type.Object({
    country: Type.String(),
    state: Type.String(),
    postcode: Type.String(),
    city: Type.String(),
    address_1: Type.String(),
  }),
  billing_address: Type.Object({ email: Type.Union([Type.String(), Type.Null()]) }),
  needs_shipping: Type.Boolean(),
  has_calculated_shipping: Type.Boolean(),
  shipping_rates: Type.Array(
    Type.Object({
      package_id: Type.Union([Type.Integer(), Type.String()]),
      name: Type.String(),
      items: Type.Array(Type.Object({ key: Type.String(), quantity: Type.Number() })),
      shipping_rates: Type.Array(
        Type.Object({
          rate_id: Type.String(),
          name: Type.String(),
          description: Type.String(),
          delivery_time: Type.Optional(Type.String()),
          price: Money,
          method_id: Type.String(),
          instance_id: Type.Integer(),
          selected: Type.Boolean(),
        }),
      ),
    }),
  ),
});
export type StoreCart = Static<typeof StoreCart>;

export const StoreCheckout = Type.Object({
  order_id: Type.Integer(),
  status: Type.String(),
  order_key: Type.String(),
  payment_result: Type.Object({ payment_status: Type.String(), redirect_url: Type.String() }),
  /** What extensions registered for the checkout answer (ExtendSchema), by namespace. */
  extensions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const StoreBatch = Type.Object({
  responses: Type.Array(Type.Object({ status: Type.Integer(), body: Type.Unknown() })),
});

const validators = new WeakMap<TSchema, Validator<unknown>>();

/** The answer as `schema`, or a InvalidAnswerError naming the call and the first wrong field. */
export function expectShape<S extends TSchema>(schema: S, value: unknown, what: string): Static<S> {
  let validate = validators.get(schema);
  if (!validate) {
    validate = compile<unknown>(schema);
    validators.set(schema, validate);
  }
  const checked = validate(value);
  if (!checked.ok) throw new InvalidAnswerError(`${what}: the store answered an unexpected shape (${checked.message})`);
  return checked.value;
}

export const WcProducts = Type.Array(WcProduct);
/** `products?sku=` lists variations among products; what tells them apart. */
export const WcSkuHits = Type.Array(
  Type.Object({ id: Type.Integer(), type: Type.String(), sku: Type.String(), parent_id: Type.Optional(Type.Integer()) }),
);
export const WcVariations = Type.Array(WcVariation);
export const WcCategories = Type.Array(WcCategory);
export const WcCoupons = Type.Array(WcCoupon);
export const WcOrders = Type.Array(WcOrder);
export const WcRefunds = Type.Array(WcRefund);
export const WcFulfillments = Type.Array(WcFulfillment);
export const WcTrackingItems = Type.Array(WcTrackingItem);
export const WcWebhooks = Type.Array(WcWebhook);
