/**
 * The backend adapter contract: what the gateway asks of any store.
 *
 * Adapters speak normalized commerce, never the protocol: no envelope, no messages, no
 * JSONPaths. Capabilities (src/capabilities) turn these shapes into protocol objects.
 * Every amount is an integer in the minor unit of its currency (USD cents, JPY yen, KWD fils).
 * Ids of products, variants, options, locations and orders are the store's own; ids of lines,
 * fulfillment methods, destinations and groups are the gateway's (echoed back unchanged).
 * docs/adapter-contract.md maps each method onto the Shopify and WooCommerce calls behind it.
 */

/** Integer amount in minor units of `currency`. */
export interface Money {
  amount: number;
  currency: string;
}

/** What this backend can do; the gateway adapts the protocol surface to it. */
export interface AdapterCapabilities {
  /** Lookup keys supported beyond product and variant ids. */
  lookupKeys: Array<'sku' | 'handle'>;
  /** Custom search filters the backend understands (beyond categories and price). */
  customFilters: CustomFilter[];
  /** Presentment currencies the store prices in; the first is the default. */
  currencies: string[];
  /** The store can quote shipping rates for an address. */
  quotesShipping: boolean;
  /** The store can compute tax for an address. */
  quotesTax: boolean;
  /** Pickup locations exist and stock is known per location. */
  pickup: boolean;
  /** The store splits a shipment into several groups (e.g. by origin) when the platform supports it. */
  multiGroup: boolean;
  /** `discoverFulfillment` answers per variant and destination (catalog fulfillment discovery). */
  fulfillmentDiscovery: boolean;
  /** Eligibility claims (context.eligibility) the store prices for, e.g. "com.example.student". */
  acceptedClaims: string[];
  /**
   * Orders can be placed through the API with a payment already captured by a gateway payment
   * handler. When false, checkout completion escalates to the store through `continueUrl`.
   */
  placesOrders: boolean;
}

export interface CustomFilter {
  name: string;
  description: string;
  /** JSON Schema of the filter's value. */
  schema: Record<string, unknown>;
}

// ---------------------------------------------------------------- catalog

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

/** Thrown by `search` for a page token it did not issue for this query; the gateway answers 400. */
export class InvalidPageTokenError extends Error {
  constructor() {
    super('page token is not valid for this query');
    this.name = 'InvalidPageTokenError';
  }
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

/**
 * Catalog data that changed in the store (a backend product webhook, a sync job), so the
 * gateway drops its cached reads of it before their TTL: some products, or everything.
 */
export type CatalogChange = { productIds: string[] } | { all: true };

// ---------------------------------------------------------------- pricing

export interface PostalAddress {
  firstName?: string;
  lastName?: string;
  streetAddress?: string;
  extendedAddress?: string;
  locality?: string;
  /** Subdivision code without the country prefix ("IL", "ON"). */
  region?: string;
  /** ISO 3166-1 alpha-2. The gateway normalizes alpha-3 and names before calling. */
  country?: string;
  postalCode?: string;
  phone?: string;
}

export interface QuoteLine {
  /** Gateway line id, echoed back. */
  lineId: string;
  variantId: string;
  quantity: number;
}

/** Contact details the buyer typed; not proof of who they are. */
export interface BuyerContact {
  email?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
}

/**
 * The authenticated buyer, resolved by the gateway from a verified buyer token (identity
 * linking). Absent = a guest: codes that need a login are rejected `user_not_logged_in`.
 */
export interface BuyerIdentity {
  /** The store's customer id. */
  customerId: string;
  email?: string;
  /** The store's own customer token when the login went to the store (Shopify customerAccessToken). */
  accessToken?: string;
}

export type FulfillmentDestination = { address: PostalAddress } | { locationId: string };

/** One fulfillment method of a checkout: which lines, where to, which option per group. */
export interface FulfillmentMethodRequest {
  /** Gateway method id, echoed back. */
  methodId: string;
  type: FulfillmentMethodType;
  /** Lines to fulfill this way; digital lines are ignored (they need no fulfillment). */
  lineIds: string[];
  /** The selected destination: an address for shipping, a pickup location for pickup. */
  destination?: FulfillmentDestination;
  /** Selected option per group, keyed by the group `key` of an earlier quote. */
  selectedOptions?: Record<string, string>;
}

export interface QuoteRequest {
  /** Presentment currency, one of the store's currencies; absent = the store default. */
  currency?: string;
  lines: QuoteLine[];
  buyer?: BuyerContact;
  identity?: BuyerIdentity;
  /** Buyer location hint (cart estimates, context); tax is estimated from it when nothing else says where. */
  location?: Pick<PostalAddress, 'country' | 'region' | 'postalCode'>;
  /** As submitted, in order; matching is case-insensitive. */
  discountCodes: string[];
  /** Claims from context.eligibility; the store prices the ones it accepts as provisional discounts. */
  eligibilityClaims?: string[];
  /** Absent on cart estimates: no fulfillment groups and no shipping are priced then. */
  fulfillment?: {
    methods: FulfillmentMethodRequest[];
    /** The platform accepts several groups per method (supports_multi_group). */
    multiGroup: boolean;
  };
}

/** Why a line cannot be bought as requested. */
export type LineProblem =
  | { lineId: string; code: 'not_found' }
  | { lineId: string; code: 'invalid_quantity' }
  | { lineId: string; code: 'out_of_stock' }
  | { lineId: string; code: 'discontinued' }
  /** Priced at the requested quantity; `available` is what can be sold (0 when an earlier line took it). */
  | { lineId: string; code: 'insufficient_stock'; available: number };

/**
 * Why a submitted code is not applied. The first six are the protocol's `discount_code_*` codes;
 * `not_applicable` (the code is valid but nothing in the cart qualifies: no eligible item, minimum
 * subtotal or quantity not reached) has no protocol code of its own.
 */
export type DiscountRejection =
  | 'expired'
  | 'invalid'
  | 'already_applied'
  | 'combination_disallowed'
  | 'user_not_logged_in'
  | 'user_ineligible'
  | 'not_applicable';

/** What one allocation of a discount reduces. */
export type AllocationTarget =
  | { kind: 'line'; lineId: string }
  /** The shipping of one fulfillment group. */
  | { kind: 'shipping'; methodId: string; groupKey: string }
  /** The order as a whole (backends that do not allocate). */
  | { kind: 'order' };

export interface AppliedDiscount {
  /** As the buyer submitted it; absent for automatic discounts. */
  code?: string;
  title: string;
  /** Positive magnitude; equals the sum of `allocations` exactly. */
  amount: number;
  automatic: boolean;
  /** `each`: computed per item independently; `across`: computed once and split by value. */
  method: 'each' | 'across';
  /** Position in the stacking order, 1 first; each discount applies to what earlier ones left. */
  priority: number;
  /** Priced from an eligibility claim that still needs verification. */
  provisional?: boolean;
  /** The accepted claim behind a provisional discount. */
  eligibility?: string;
  allocations: Array<{ target: AllocationTarget; amount: number }>;
}

export interface QuotedLine {
  lineId: string;
  variantId: string;
  productId: string;
  /** Product title. */
  title: string;
  /** Variant title when the product has options. */
  variantTitle?: string;
  sku?: string;
  unitPrice: number;
  quantity: number;
  imageUrl?: string;
  requiresShipping: boolean;
  /** `now`, a release date (YYYY-MM-DD) for preorders, or null when unknown (backorder). */
  fulfillableOn: string | null;
  /** unitPrice * quantity, before discounts. */
  subtotal: number;
}

export interface FulfillmentOptionQuote {
  /** The store's option id (rate handle, location option); stable across quotes. */
  id: string;
  /** Distinguishes the option from its siblings. */
  title: string;
  /** Extra detail; never repeats the title or the price. */
  description?: string;
  carrier?: string;
  /** RFC 3339 window of delivery or readiness. */
  earliest?: string;
  latest?: string;
  /** Price before any shipping discount (those are allocations of applied discounts). */
  amount: number;
}

export interface FulfillmentGroupQuote {
  /**
   * Stable identity chosen by the store (e.g. the origin the parcel leaves from): the same key
   * for the same split across quotes, so the gateway can derive a stable group id from it.
   */
  key: string;
  lineIds: string[];
  /** Cheapest first. Empty when there is no destination yet or nothing can reach it. */
  options: FulfillmentOptionQuote[];
  /** Why `options` is empty although a destination is set (a sentence for the buyer). */
  unavailableReason?: string;
  /** Echoed when the requested option is one of `options`. */
  selectedOptionId?: string;
}

export interface FulfillmentMethodQuote {
  methodId: string;
  type: FulfillmentMethodType;
  /** The method's physical, priced lines. */
  lineIds: string[];
  /** One group unless `multiGroup` was requested and the store ships separately. */
  groups: FulfillmentGroupQuote[];
}

/** A method the lines could use, for `available_methods`. */
export interface AvailableMethod {
  type: FulfillmentMethodType;
  lineIds: string[];
  /** `now`, a date (YYYY-MM-DD), or null when unknown. */
  fulfillableOn: string | null;
  /** Standalone sentence. */
  description: string;
}

export interface Quote {
  currency: string;
  /** Lines that can be priced (not those with not_found, invalid_quantity, out_of_stock, discontinued). */
  lines: QuotedLine[];
  lineProblems: LineProblem[];
  discounts: {
    /** Every active discount in stacking order, codes and automatic ones. */
    applied: AppliedDiscount[];
    /** `index` is the position of the code in the submitted `discountCodes`. */
    rejected: Array<{ code: string; index: number; reason: DiscountRejection; detail?: string }>;
  };
  /** Present when fulfillment was requested. */
  fulfillment?: FulfillmentMethodQuote[];
  /** Methods the priced physical lines could use (empty when every line is digital). */
  availableMethods: AvailableMethod[];
  /** Tax per jurisdiction; empty when tax is null. */
  taxLines: Array<{ title: string; amount: number }>;
  totals: {
    /** Sum of line subtotals. */
    subtotal: number;
    /** Sum of discount allocations to lines. */
    itemsDiscount: number;
    /** Sum of discount allocations to shipping and to the order. */
    discount: number;
    /**
     * Sum of the selected options' amounts (groups without a selection add nothing yet); null
     * while no group has one; 0 when nothing ships.
     */
    shipping: number | null;
    /** null when tax cannot be computed yet (no destination or location for some line). */
    tax: number | null;
    /** subtotal - itemsDiscount - discount + (shipping ?? 0) + (tax ?? 0). */
    total: number;
  };
}

// ---------------------------------------------------------------- orders

export interface PaymentRecord {
  handlerId: string;
  /** Processor reference of the captured payment. */
  transactionId: string;
  amount: number;
  display?: { brand?: string; lastDigits?: string };
}

export interface PlaceOrderRequest {
  /** Stable per checkout: a retry with the same reference MUST NOT create a second order. */
  reference: string;
  /** The checkout's final quote request, every fulfillment group with its selected option. */
  quote: QuoteRequest;
  /** The total the buyer agreed to; the adapter refuses when the store's price moved. */
  expectedTotal: number;
  buyer: BuyerContact & { email: string };
  billingAddress?: PostalAddress;
  payment: PaymentRecord;
}

export type PlaceOrderResult =
  /** Also the answer for a reference that was already placed (the same order). */
  | { status: 'placed'; orderId: string; permalinkUrl?: string }
  /** Backend accepted but has not confirmed yet; resolve later with `findOrderByReference`. */
  | { status: 'pending' }
  | {
      status: 'rejected';
      /**
       * price_changed: the store's total is not `expectedTotal` (see `actualTotal`);
       * out_of_stock: a line can no longer be sold; incomplete: a line or fulfillment group the
       * store cannot place (unknown item, no option selected).
       */
      reason: 'price_changed' | 'out_of_stock' | 'incomplete';
      detail: string;
      actualTotal?: number;
    };

export interface OrderLine {
  /** The checkout's line id. */
  id: string;
  variantId: string;
  productId: string;
  title: string;
  sku?: string;
  unitPrice: number;
  imageUrl?: string;
  /** original: at checkout; current: after edits, cancellations and returns; fulfilled: handed over. */
  quantity: { original: number; current: number; fulfilled: number };
  /** unitPrice * original quantity. */
  subtotal: number;
  /** Discount allocated to this line at checkout. */
  discount: number;
}

/** The buyer-facing delivery promise for some lines. */
export interface FulfillmentExpectation {
  id: string;
  lines: Array<{ id: string; quantity: number }>;
  method: FulfillmentMethodType | 'digital';
  /** Shipping address or pickup location address; absent for digital delivery. */
  destination?: PostalAddress;
  description?: string;
  /** `now` or a date for preorders; null when unknown (backorder). */
  fulfillableOn?: string | null;
}

/** Append-only log of what actually happened to the goods. */
export interface FulfillmentEvent {
  id: string;
  occurredAt: string;
  /** Open: processing, shipped, in_transit, delivered, canceled, ... */
  type: string;
  lines: Array<{ id: string; quantity: number }>;
  trackingNumber?: string;
  trackingUrl?: string;
  carrier?: string;
  description?: string;
}

/** Post-order money or quantity change (refund, return, cancellation); append-only. */
export interface OrderAdjustment {
  id: string;
  /** Open: refund, return, cancellation, ... */
  type: string;
  occurredAt: string;
  status: 'pending' | 'completed' | 'failed';
  /** Signed quantities: negative for items leaving the order. Absent for order-level adjustments. */
  lines?: Array<{ id: string; quantity: number }>;
  /** Signed minor units: negative for money returned to the buyer. */
  amount?: number;
  description?: string;
}

export interface OrderSnapshot {
  id: string;
  /** The `reference` it was placed with (the checkout). */
  reference?: string;
  currency: string;
  createdAt: string;
  permalinkUrl?: string;
  /** Every line that ever existed on the order. */
  lines: OrderLine[];
  expectations: FulfillmentExpectation[];
  events: FulfillmentEvent[];
  adjustments: OrderAdjustment[];
  /** As charged at checkout (adjustments carry later changes). */
  totals: { subtotal: number; itemsDiscount: number; discount: number; shipping: number; tax: number; total: number };
  canceled?: boolean;
}

/** A verified backend webhook, reduced to what the gateway needs. */
export interface BackendEvent {
  /** The backend's delivery id, for deduplication. */
  eventId: string;
  orderId: string;
  topic: string;
}

// ---------------------------------------------------------------- the adapter

export interface Adapter {
  readonly kind: string;
  readonly capabilities: AdapterCapabilities;

  search(query: SearchQuery, signal?: AbortSignal): Promise<SearchPage>;
  /**
   * Resolves product ids, variant ids and the declared `lookupKeys` (SKU, handle). Each product
   * appears once, with all its variants; unknown ids are simply not in any `inputs`.
   */
  lookup(ids: string[], signal?: AbortSignal): Promise<LookupResult[]>;
  pickupLocations(signal?: AbortSignal): Promise<PickupLocation[]>;
  /** Per variant and method: can it reach this destination, and how (catalog `fulfills_to`). */
  discoverFulfillment(query: FulfillmentDiscoveryQuery, signal?: AbortSignal): Promise<VariantFulfillment[]>;
  /**
   * Optional: the adapter calls `listener` when catalog data changed, and the gateway's catalog
   * cache drops what it holds of it. Without it, cached reads live for the tenant's
   * `catalog_cache_ttl_seconds`. Returns a function that stops the notifications.
   */
  onCatalogChange?(listener: (change: CatalogChange) => void): () => void;

  /** Prices lines, discounts, fulfillment and tax exactly as the store's own checkout would. */
  quote(request: QuoteRequest, signal?: AbortSignal): Promise<Quote>;

  /** Places the order once per `reference`; concurrent calls with one reference yield one order. */
  placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult>;
  findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl?: string } | null>;
  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null>;

  /** Store page that recreates this purchase (cart permalink or checkout page). */
  continueUrl(lines: Array<{ variantId: string; quantity: number }>, options?: { discountCodes?: string[] }): string;

  /** Verifies a backend webhook with the store's own scheme; null when it does not verify. */
  verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): BackendEvent | null;

  /** Cheap reachability check for readiness probes. */
  ping(signal?: AbortSignal): Promise<void>;
  close?(): Promise<void>;
}

/** Thrown by adapters for backend failures; the gateway retries `retryable` ones. */
export class BackendError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'BackendError';
  }
}
