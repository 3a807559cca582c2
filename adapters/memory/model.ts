/** The demo store in memory, as loaded from config/demo (identical on every replica). */
import type { CatalogProduct, CatalogVariant, PickupLocation, PostalAddress } from '../contract.js';

export interface StoreVariant {
  variant: CatalogVariant;
  product: CatalogProduct;
  /** Tracked stock; null when untracked (always sellable). */
  stock: number | null;
  backorder: boolean;
  /** Preorder release date (YYYY-MM-DD). */
  preorderOn?: string;
  discontinued: boolean;
  /** Origin it ships from; absent for digital goods. */
  originId?: string;
  /** Lower-cased category values of its product, for discount eligibility. */
  categories: Set<string>;
}

export type DiscountType = 'percentage' | 'fixed_amount' | 'free_shipping';

/** A discount code or an automatic promotion, normalized. */
export interface DiscountRule {
  /** Upper-cased code, or the promotion id. */
  key: string;
  automatic: boolean;
  title: string;
  type: DiscountType;
  /** Percent (1-100) or minor units; 0 for free shipping. */
  value: number;
  method: 'each' | 'across';
  priority: number;
  products?: Set<string>;
  /** Lower-cased category values. */
  categories?: Set<string>;
  serviceLevels?: Set<string>;
  minSubtotal?: number;
  minQuantity?: number;
  startsAt?: number;
  endsAt?: number;
  individualUse: boolean;
  requiresLogin: boolean;
  customers?: Set<string>;
  /** Lower-cased. */
  emails?: Set<string>;
  eligibility?: string;
}

export interface Origin {
  id: string;
  name: string;
  address: PostalAddress;
  handlingDays: number;
  /** Countries served; absent = everywhere. */
  shipsTo?: Set<string>;
}

export interface Rate {
  id: string;
  /** ISO alpha-2 or "default". */
  country: string;
  serviceLevel: string;
  price: number;
  title: string;
  carrier: string;
  minDays: number;
  maxDays: number;
}

export interface Location {
  location: PickupLocation;
  readyWithinHours: number;
  /** Stock per variant id; absent = none there. */
  stock: Map<string, number>;
}

export interface TaxRule {
  /** "US-IL", "CA", or "" for the default rule. */
  region: string;
  title: string;
  /** Rate in parts per million (6.25 % = 62 500). */
  ppm: number;
  shippingTaxable: boolean;
}

export interface StoreData {
  currency: string;
  /** In catalog order. */
  products: CatalogProduct[];
  productsById: Map<string, CatalogProduct>;
  productsByHandle: Map<string, CatalogProduct>;
  variants: Map<string, StoreVariant>;
  /** Keyed by lower-cased SKU. */
  variantsBySku: Map<string, StoreVariant>;
  codes: Map<string, DiscountRule>;
  promotions: DiscountRule[];
  origins: Map<string, Origin>;
  rates: Rate[];
  /** In file order. */
  locations: Location[];
  /** `included`: the catalog and shipping prices contain the tax (the tenant's `prices_include_tax`). */
  tax: { rules: TaxRule[]; fallback: TaxRule; included?: boolean };
  /** Customer id -> lower-cased email. */
  customerEmails: Map<string, string>;
  /** Who each eligibility claim is verified for (eligibility.yaml): customer ids and lower-cased emails. */
  claims: Map<string, { customers: Set<string>; emails: Set<string> }>;
}
