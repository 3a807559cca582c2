/** Row schemas of the flower shop's original CSV files (config/demo/*.csv, kept as published). */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../../schemas/common.js';

/** CSV cells are strings: integers are checked by pattern and converted after validation. */
const Int = Type.String({ pattern: '^\\d+$' });
const OptionalInt = Type.String({ pattern: '^\\d*$' });

export const ProductRow = Type.Object({
  id: Type.String({ minLength: 1 }),
  title: Type.String({ minLength: 1 }),
  price: Int,
  /** Absolute, or relative to the storefront URL (`images/roses.svg`: a file the gateway serves). */
  image_url: Type.String({ format: 'uri-reference' }),
});
export const InventoryRow = Type.Object({ product_id: Type.String({ minLength: 1 }), quantity: Int });
export const DiscountRow = Type.Object({
  code: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
  type: StringEnum(['percentage', 'fixed_amount']),
  value: Int,
  description: Type.String({ minLength: 1 }),
});
export const PromotionRow = Type.Object({
  id: Type.String({ minLength: 1 }),
  type: StringEnum(['free_shipping']),
  min_subtotal: OptionalInt,
  /** A JSON array of product ids, or empty. */
  eligible_item_ids: Type.String(),
  description: Type.String({ minLength: 1 }),
});
export const ShippingRateRow = Type.Object({
  id: Type.String({ minLength: 1 }),
  country_code: Type.String({ pattern: '^([A-Z]{2}|default)$' }),
  service_level: Type.String({ minLength: 1 }),
  price: Int,
  title: Type.String({ minLength: 1 }),
});
export const CustomerRow = Type.Object({ id: Type.String({ minLength: 1 }), name: Type.String(), email: Type.String({ format: 'email' }) });

export type ProductRow = Static<typeof ProductRow>;
export type InventoryRow = Static<typeof InventoryRow>;
export type DiscountRow = Static<typeof DiscountRow>;
export type PromotionRow = Static<typeof PromotionRow>;
export type ShippingRateRow = Static<typeof ShippingRateRow>;
export type CustomerRow = Static<typeof CustomerRow>;
