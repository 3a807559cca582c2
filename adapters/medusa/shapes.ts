/**
 * The parts of Medusa's Store and Admin API answers the adapter reads (Medusa v2.21, the
 * `@medusajs/types` HttpTypes narrowed to the fields used). Amounts are major units, numbers
 * (or numeric strings in some answers), never rounded. An answer that lacks what is declared
 * here fails in the mapping and reaches the gateway as an invalid answer.
 */
export type Amount = number | string;
export type Maybe<T> = T | null | undefined;
type Metadata = Maybe<Record<string, unknown>>;

export interface MedusaOption {
  id: string;
  title: string;
  values?: Array<{ value: string }>;
}

export interface MedusaVariant {
  id: string;
  title?: Maybe<string>;
  sku?: Maybe<string>;
  product_id?: string;
  manage_inventory?: boolean;
  allow_backorder?: boolean;
  inventory_quantity?: Maybe<number>;
  options?: Array<{ option_id?: Maybe<string>; value: string; option?: Maybe<{ title?: string }> }>;
  calculated_price?: Maybe<{ calculated_amount?: Maybe<Amount> }>;
}

export interface MedusaProduct {
  id: string;
  title: string;
  handle?: Maybe<string>;
  description?: Maybe<string>;
  thumbnail?: Maybe<string>;
  images?: Maybe<Array<{ url: string }>>;
  options?: Maybe<MedusaOption[]>;
  variants?: Maybe<MedusaVariant[]>;
  categories?: Maybe<Array<{ id: string; name: string }>>;
  tags?: Maybe<Array<{ value: string }>>;
}

export interface MedusaAdjustment {
  /** As the promotion computed it: before tax on a tax-exclusive line, or as flagged `is_tax_inclusive`. */
  amount: Amount;
  /** The amount before tax (@medusajs/utils calculateAdjustmentTotal sets it on every answered adjustment). */
  subtotal?: Maybe<Amount>;
  /** The amount with its tax (calculateAdjustmentTotal too): what it takes off a tax-inclusive price. */
  total?: Maybe<Amount>;
  code?: Maybe<string>;
  promotion_id?: Maybe<string>;
  description?: Maybe<string>;
}

export interface MedusaAddress {
  first_name?: Maybe<string>;
  last_name?: Maybe<string>;
  address_1?: Maybe<string>;
  address_2?: Maybe<string>;
  city?: Maybe<string>;
  province?: Maybe<string>;
  postal_code?: Maybe<string>;
  country_code?: Maybe<string>;
  phone?: Maybe<string>;
}

export interface MedusaLineItem {
  id: string;
  variant_id: string;
  product_id: string;
  title?: Maybe<string>;
  product_title?: Maybe<string>;
  variant_title?: Maybe<string>;
  variant_sku?: Maybe<string>;
  thumbnail?: Maybe<string>;
  /** The price as the store sets it: with the tax inside when `is_tax_inclusive`. */
  unit_price: Amount;
  quantity: number;
  is_tax_inclusive?: Maybe<boolean>;
  /** unit_price × quantity before tax and discounts (without the included tax on a tax-inclusive line). */
  subtotal?: Maybe<Amount>;
  /** The tax of what is paid for the line, after discounts (inside the price when `is_tax_inclusive`). */
  tax_total?: Maybe<Amount>;
  tax_lines?: Maybe<Array<{ description?: Maybe<string>; code?: Maybe<string> }>>;
  requires_shipping?: Maybe<boolean>;
  metadata?: Metadata;
  adjustments?: Maybe<MedusaAdjustment[]>;
  /** Orders only: what happened to the quantity since (a return leaves `quantity` as it was). */
  detail?: Maybe<{
    fulfilled_quantity?: Maybe<Amount>;
    return_received_quantity?: Maybe<Amount>;
    return_dismissed_quantity?: Maybe<Amount>;
  }>;
}

interface MedusaShippingMethod {
  name?: Maybe<string>;
  shipping_option_id?: Maybe<string>;
  adjustments?: Maybe<MedusaAdjustment[]>;
  /** The price as set: with the tax inside when `is_tax_inclusive`. */
  amount?: Maybe<Amount>;
  is_tax_inclusive?: Maybe<boolean>;
  tax_total?: Maybe<Amount>;
  tax_lines?: Maybe<Array<{ description?: Maybe<string>; code?: Maybe<string> }>>;
}

export interface MedusaCart {
  id: string;
  currency_code: string;
  region_id?: Maybe<string>;
  email?: Maybe<string>;
  completed_at?: Maybe<string>;
  metadata?: Metadata;
  total: Amount;
  tax_total?: Maybe<Amount>;
  shipping_subtotal?: Maybe<Amount>;
  items?: Maybe<MedusaLineItem[]>;
  promotions?: Maybe<Array<{ code?: Maybe<string> }>>;
  shipping_methods?: Maybe<MedusaShippingMethod[]>;
  shipping_address?: Maybe<MedusaAddress>;
  payment_collection?: Maybe<{ id: string }>;
}

export interface MedusaShippingOption {
  id: string;
  name: string;
  /** Every option serves one shipping profile; a cart needs a method for each profile it ships. */
  shipping_profile_id?: Maybe<string>;
  /** Absent for a `calculated` option until it is calculated (POST /store/shipping-options/{id}/calculate). */
  amount?: Maybe<Amount>;
  calculated_price?: Maybe<{ calculated_amount?: Maybe<Amount> }>;
  type?: Maybe<{ description?: Maybe<string> }>;
  insufficient_inventory?: boolean;
}

interface MedusaFulfillment {
  id: string;
  created_at: string;
  shipped_at?: Maybe<string>;
  delivered_at?: Maybe<string>;
  canceled_at?: Maybe<string>;
  items?: Maybe<Array<{ line_item_id: string; quantity: Amount }>>;
  labels?: Maybe<Array<{ tracking_number?: Maybe<string>; tracking_url?: Maybe<string> }>>;
}

interface MedusaPayment {
  id: string;
  captured_at?: Maybe<string>;
  refunds?: Maybe<Array<{ id: string; amount: Amount; created_at: string; note?: Maybe<string> }>>;
}

interface MedusaReturn {
  id: string;
  status?: Maybe<string>;
  created_at: string;
  received_at?: Maybe<string>;
  canceled_at?: Maybe<string>;
  items?: Maybe<Array<{ item_id: string; quantity?: Maybe<Amount>; received_quantity?: Maybe<Amount> }>>;
}

export interface MedusaOrder {
  id: string;
  /** 1 as placed; every confirmed change (return, edit, claim, exchange) adds one. */
  version?: Maybe<number>;
  status?: Maybe<string>;
  /** not_paid, awaiting, authorized, partially_authorized, captured, …, requires_action (Admin API). */
  payment_status?: Maybe<string>;
  created_at: string;
  updated_at?: Maybe<string>;
  currency_code: string;
  metadata?: Metadata;
  /** The cart it was placed from (the order-cart link, `fields=cart.id`). */
  cart?: Maybe<{ id?: Maybe<string> }>;
  total: Amount;
  tax_total?: Maybe<Amount>;
  shipping_subtotal?: Maybe<Amount>;
  items?: Maybe<MedusaLineItem[]>;
  shipping_address?: Maybe<MedusaAddress>;
  shipping_methods?: Maybe<MedusaShippingMethod[]>;
  fulfillments?: Maybe<MedusaFulfillment[]>;
  payment_collections?: Maybe<Array<{ payments?: Maybe<MedusaPayment[]> }>>;
  returns?: Maybe<MedusaReturn[]>;
}
