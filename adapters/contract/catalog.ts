/** The catalog an adapter reads: products and variants, search, lookup, pickup locations, fulfillment discovery. */
import type { Money, PostalAddress, RequestContext } from './shared.js';

/** Options of a lookup (all optional; an adapter may ignore each). */
export interface LookupOptions {
  context?: RequestContext;
  /**
   * get_product's option selection, as the caller sent it (names and values matched without
   * regard to case): a store that lists only some variants of a large product makes sure the
   * variant with exactly these values, when it exists, is among `variants`. Adapters that list
   * every variant ignore it.
   */
  selected?: Array<{ name: string; value: string }>;
}

export type AvailabilityStatus = 'in_stock' | 'backorder' | 'preorder' | 'out_of_stock' | 'discontinued';

export type FulfillmentMethodType = 'shipping' | 'pickup';

export interface Media {
  type: 'image' | 'video';
  url: string;
  altText?: string;
}

export interface CatalogProduct {
  id: string;
  handle?: string;
  title: string;
  description?: string;
  /** Product page on the store. */
  url?: string;
  categories: Array<{ value: string; taxonomy?: string }>;
  /** Product media first, then variant media not already listed. */
  media: Media[];
  /** Option axes in display order, each with its values in display order. */
  options: Array<{ name: string; values: string[] }>;
  /**
   * Every variant that exists. A combination of option values without a variant does not exist;
   * the gateway derives `exists` / `available` of option values from this list.
   */
  variants: CatalogVariant[];
  /** The variant the store shows first (the representative for a product-id lookup). */
  featuredVariantId: string;
  rating?: { value: number; scaleMax: number; count: number };
  tags: string[];
  vendor?: { name: string; url?: string };
  metadata?: Record<string, unknown>;
}

export interface CatalogVariant {
  id: string;
  productId: string;
  sku?: string;
  /** "M / Green" for option variants; the product title for a simple product. */
  title: string;
  description?: string;
  price: Money;
  /** One entry per product option axis; empty for a simple product. */
  options: Array<{ name: string; value: string }>;
  availability: {
    /** True when it can be bought now (in stock, backorder, preorder). */
    available: boolean;
    status: AvailabilityStatus;
    /** Sellable quantity now; null when the store does not track stock or sells beyond it. */
    quantity: number | null;
    /** Preorder release date (YYYY-MM-DD); absent when it ships now or the date is unknown. */
    availableOn?: string;
  };
  /** False for digital goods and services: they get no fulfillment method. */
  requiresShipping: boolean;
  /** Stock per pickup location (only when the adapter declares `pickup`). */
  locationStock?: Array<{ locationId: string; quantity: number }>;
  url?: string;
  tags?: string[];
  media?: Media[];
}

export interface SearchQuery {
  /** Free text; absent = browse in the store's own order. Every word must match somewhere. */
  text?: string;
  /** OR over category values (exact, case-insensitive). */
  categories?: string[];
  /** Inclusive bounds in minor units of `currency`, which is one of the store's currencies. */
  price?: { min?: number; max?: number; currency: string };
  /** Values of the adapter's declared `customFilters`, already validated against their schemas. */
  custom?: Record<string, unknown>;
  /** Page size wanted (the gateway clamps it). */
  limit: number;
  /** Opaque token from a previous page of the same query. */
  pageToken?: string;
}

export interface SearchPage {
  /** Products with at least one variant passing every filter; each with all its variants. */
  products: CatalogProduct[];
  /** Absent on the last page. */
  nextPageToken?: string;
  totalCount?: number;
}

/** One product reached by lookup ids, with the ids that reached it. */
export interface LookupResult {
  product: CatalogProduct;
  /**
   * One entry per request id resolved to this product: `exact` when the id names the variant
   * (variant id, SKU), `featured` when it names the product (product id, handle) and the
   * variant is the product's representative.
   */
  inputs: Array<{ id: string; variantId: string; match: 'exact' | 'featured' }>;
}

export interface PickupLocation {
  id: string;
  name: string;
  address: PostalAddress;
  /** How long after the order stock on hand is ready for pickup. */
  readyWithinHours?: number;
}

/** Where a catalog fulfillment answer is for: a (coarse) address, a pickup location, or both. */
export interface DiscoveryDestination {
  /** Used for shipping; pickup then picks the store's best location in that area. */
  address?: Pick<PostalAddress, 'country' | 'region' | 'postalCode'>;
  /** Used for pickup; shipping is then judged for the location's own area. */
  locationId?: string;
}

export interface FulfillmentDiscoveryQuery {
  variantIds: string[];
  destination: DiscoveryDestination;
  /** Methods wanted; absent = every method the store offers. */
  methods?: FulfillmentMethodType[];
}

export interface VariantFulfillment {
  variantId: string;
  /** Empty for digital variants (they need no fulfillment). */
  methods: Array<{
    type: FulfillmentMethodType;
    /** Authoritative for this method at this destination (not derived from variant availability). */
    available: boolean;
    status: AvailabilityStatus;
    /** The pickup location this answer is about. */
    locationId?: string;
    /** Standalone sentence, e.g. "Ships from our Chicago florist to Illinois." */
    description?: string;
    /**
     * Representative options (the cheapest and the fastest), not all. Their ids are accepted as
     * `selectedOptionId` at checkout.
     */
    options: Array<{ id: string; title: string; description?: string; amount: number; earliest?: string; latest?: string }>;
  }>;
}
