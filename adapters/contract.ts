/**
 * The backend adapter contract: what the gateway asks of any store.
 *
 * Adapters speak normalized commerce, never the protocol: no envelope, no messages, no
 * JSONPaths. Capabilities (src/capabilities) turn these shapes into protocol objects.
 * Every amount is an integer in the minor unit of its currency (USD cents, JPY yen, KWD fils).
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
  /** Orders can be placed through the API (with a payment already captured by the gateway). */
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

export interface CatalogProduct {
  id: string;
  handle?: string;
  title: string;
  description?: string;
  url?: string;
  categories: Array<{ value: string; taxonomy?: string }>;
  media: Array<{ type: 'image' | 'video'; url: string; altText?: string }>;
  /** Option axes in display order, each with its values in display order. */
  options: Array<{ name: string; values: string[] }>;
  variants: CatalogVariant[];
  /** The variant the store shows first; defaults to the first available variant. */
  featuredVariantId?: string;
  rating?: { value: number; scaleMax: number; count: number };
  tags: string[];
  vendor?: { name: string; url?: string };
  metadata?: Record<string, unknown>;
}

export interface CatalogVariant {
  id: string;
  productId: string;
  sku?: string;
  title: string;
  description?: string;
  price: Money;
  /** One entry per product option axis. */
  options: Array<{ name: string; value: string }>;
  availability: {
    status: AvailabilityStatus;
    /** Sellable quantity now; null when the store does not track stock. */
    quantity: number | null;
  };
  /** False for digital goods and services: they get no fulfillment method. */
  requiresShipping: boolean;
  /** Stock per pickup location (only when the adapter declares `pickup`). */
  locationStock?: Array<{ locationId: string; quantity: number }>;
  tags?: string[];
  media?: Array<{ type: 'image' | 'video'; url: string; altText?: string }>;
}

export interface SearchQuery {
  text?: string;
  categories?: string[];
  /** Inclusive bounds in minor units of `currency` (one of the store's currencies). */
  price?: { min?: number; max?: number; currency: string };
  custom?: Record<string, unknown>;
  limit: number;
  /** Opaque token from a previous page of the same query. */
  pageToken?: string;
}

export interface SearchPage {
  products: CatalogProduct[];
  nextPageToken?: string;
  totalCount?: number;
}

export interface ProductRefs {
  productIds?: string[];
  variantIds?: string[];
  skus?: string[];
  handles?: string[];
}

export interface PickupLocation {
  id: string;
  name: string;
  address: PostalAddress;
  /** Days to ready for pickup when stock is there; 0 = same day. */
  readyInDays?: number;
}

// ---------------------------------------------------------------- pricing

export interface PostalAddress {
  firstName?: string;
  lastName?: string;
  streetAddress?: string;
  extendedAddress?: string;
  locality?: string;
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

export interface FulfillmentSelection {
  /** Gateway group id, echoed back. */
  groupId: string;
  method: 'shipping' | 'pickup';
  lineIds: string[];
  destination?: { address: PostalAddress } | { locationId: string };
  selectedOptionId?: string;
}

export interface QuoteRequest {
  currency: string;
  lines: QuoteLine[];
  buyer?: { email?: string; firstName?: string; lastName?: string; customerId?: string };
  /** Buyer location hint (cart estimates); a fulfillment destination wins over it. */
  location?: { country?: string; region?: string; postalCode?: string };
  /** As submitted, in order; matching is case-insensitive. */
  discountCodes: string[];
  eligibilityClaims?: string[];
  /** Absent on cart estimates: no shipping is priced then. */
  fulfillment?: FulfillmentSelection[];
  /** Split groups where the store would ship separately; otherwise one group per method. */
  multiGroup?: boolean;
}

export type LineProblem =
  | { lineId: string; code: 'not_found' }
  | { lineId: string; code: 'out_of_stock' }
  | { lineId: string; code: 'insufficient_stock'; available: number }
  | { lineId: string; code: 'invalid_quantity' };

export type DiscountRejection =
  | 'expired'
  | 'invalid'
  | 'already_applied'
  | 'combination_disallowed'
  | 'user_not_logged_in'
  | 'user_ineligible';

export interface AppliedDiscount {
  code?: string;
  title: string;
  /** Positive magnitude. Equals the sum of `allocations`. */
  amount: number;
  automatic: boolean;
  method: 'each' | 'across';
  priority: number;
  provisional?: boolean;
  eligibility?: string;
  allocations: Array<{ target: { lineId: string } | { shipping: string } | 'order'; amount: number }>;
}

export interface QuotedLine {
  lineId: string;
  variantId: string;
  productId: string;
  title: string;
  unitPrice: number;
  quantity: number;
  imageUrl?: string;
  requiresShipping: boolean;
  /** unitPrice * quantity. */
  subtotal: number;
}

export interface ShippingOptionQuote {
  id: string;
  title: string;
  description?: string;
  carrier?: string;
  earliest?: string;
  latest?: string;
  /** Price before any shipping discount. */
  amount: number;
}

export interface FulfillmentGroupQuote {
  groupId: string;
  method: 'shipping' | 'pickup';
  lineIds: string[];
  options: ShippingOptionQuote[];
  selectedOptionId?: string;
}

export interface Quote {
  currency: string;
  lines: QuotedLine[];
  lineProblems: LineProblem[];
  discounts: {
    applied: AppliedDiscount[];
    rejected: Array<{ code: string; reason: DiscountRejection }>;
  };
  /** Present when fulfillment was requested; groups may be split by the store. */
  fulfillment?: FulfillmentGroupQuote[];
  /** null when tax cannot be computed yet (no destination). */
  tax: number | null;
  /** Sum of selected options' amounts; null when none is selected yet. */
  shipping: number | null;
  total: number;
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
  quote: QuoteRequest;
  /** The total the buyer agreed to; the adapter refuses when the store's price moved. */
  expectedTotal: number;
  buyer: { email: string; firstName?: string; lastName?: string; phone?: string };
  shippingAddress?: PostalAddress;
  billingAddress?: PostalAddress;
  payment: PaymentRecord;
}

export type PlaceOrderResult =
  | { status: 'placed'; orderId: string; permalinkUrl?: string }
  /** Backend accepted but has not confirmed yet; resolve later with `findOrderByReference`. */
  | { status: 'pending' }
  | { status: 'rejected'; reason: 'price_changed' | 'out_of_stock'; detail: string };

export interface OrderSnapshot {
  id: string;
  reference?: string;
  currency: string;
  createdAt: string;
  permalinkUrl?: string;
  lines: Array<{
    id: string;
    variantId: string;
    title: string;
    unitPrice: number;
    imageUrl?: string;
    quantity: { original: number; current: number; fulfilled: number };
    subtotal: number;
  }>;
  shippingAddress?: PostalAddress;
  fulfillmentMethod?: 'shipping' | 'pickup' | 'digital';
  fulfillmentEvents: Array<{
    id: string;
    occurredAt: string;
    type: string;
    lines: Array<{ id: string; quantity: number }>;
    trackingNumber?: string;
    trackingUrl?: string;
    carrier?: string;
    description?: string;
  }>;
  adjustments: Array<{
    id: string;
    type: string;
    occurredAt: string;
    status: 'pending' | 'completed' | 'failed';
    lines?: Array<{ id: string; quantity: number }>;
    amount?: number;
    description?: string;
  }>;
  totals: { subtotal: number; discount: number; shipping: number; tax: number; total: number };
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
  /** Products reached by any of the refs, each with all its variants. Unknown refs are skipped. */
  getProducts(refs: ProductRefs, signal?: AbortSignal): Promise<CatalogProduct[]>;
  pickupLocations(signal?: AbortSignal): Promise<PickupLocation[]>;

  /** Prices lines, discounts, shipping and tax exactly as the store's own checkout would. */
  quote(request: QuoteRequest, signal?: AbortSignal): Promise<Quote>;

  placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult>;
  findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl?: string } | null>;
  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null>;

  /** Store page that continues this purchase (cart permalink or checkout page). */
  continueUrl(lines: Array<{ variantId: string; quantity: number }>): string;

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
