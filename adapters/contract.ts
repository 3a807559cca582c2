/**
 * The backend adapter contract (v2): what the gateway asks of any store.
 *
 * Adapters speak normalized commerce, never the protocol: no envelope, no messages, no
 * JSONPaths. Capabilities (src/capabilities) turn these shapes into protocol objects.
 * Every amount is an integer in the minor unit of its currency (USD cents, JPY yen, KWD fils).
 * Ids of products, variants, options, locations and orders are the store's own; ids of lines,
 * fulfillment methods, destinations and groups are the gateway's (echoed back unchanged), except
 * order lines, which may carry the store's own ids (see `OrderLine`).
 *
 * v2 in one paragraph: a cart or checkout keeps the store's own cart through an opaque `handle`
 * (returned by `quote`, handed back on every later call); the store's checkout page comes from
 * the store (`checkoutUrl`, async, carrying the gateway's reference); a checkout finishes in one
 * of three declared modes (`capabilities.finishing`); orders placed on the store after a handoff
 * reach the gateway as verified `BackendEvent`s or through `ordersChangedSince`; what a store
 * cannot say is a declared optional capability with a documented gateway fallback.
 * docs/adapter-contract.md maps each method onto the Shopify, WooCommerce and REST calls behind it.
 */

/** Integer amount in minor units of `currency`. */
export interface Money {
  amount: number;
  currency: string;
}

/**
 * How a checkout is finished (declared by the adapter, chosen per tenant in `adapter.finishing`):
 * - `gateway_charged`: a gateway payment handler captures, then `placeOrder` records the order paid;
 * - `store_charged`: `placeOrder` passes the buyer's credential to the store, which charges it;
 * - `handoff`: no order through the API: complete answers `requires_escalation` with the store's
 *   checkout page (`checkoutUrl`); the order placed there is reconciled from a backend event or poll.
 */
export type FinishingMode = 'gateway_charged' | 'store_charged' | 'handoff';

export const FINISHING_MODES: readonly FinishingMode[] = ['gateway_charged', 'store_charged', 'handoff'];

/**
 * What this backend can do; the gateway adapts the protocol surface to it. Each optional
 * capability (a boolean or list that may be false or empty) has a documented fallback in
 * docs/adapter-contract.md; the gateway never invents what the store did not say.
 */
export interface AdapterCapabilities {
  /** Lookup keys supported beyond product and variant ids ([]: ids only; other ids are not_found). */
  lookupKeys: Array<'sku' | 'handle'>;
  /** Custom search filters the backend understands (beyond categories and price). */
  customFilters: CustomFilter[];
  /** Presentment currencies the store prices in; the first is the default. */
  currencies: string[];
  /** The store can quote shipping rates for an address. */
  quotesShipping: boolean;
  /** The store can compute tax for an address. */
  quotesTax: boolean;
  /** Pickup locations exist (`pickupLocations` lists them) and pickup can be quoted. */
  pickup: boolean;
  /** Stock is known per pickup location (`CatalogVariant.locationStock`); false: the variant's own stock counts everywhere. */
  locationStock: boolean;
  /** The store splits a shipment into several groups (e.g. by origin) when the platform supports it. */
  multiGroup: boolean;
  /** `discoverFulfillment` answers per variant and destination (catalog fulfillment discovery). */
  fulfillmentDiscovery: boolean;
  /**
   * The store says why a code was refused (`Quote.discounts.rejected[].reason`). False: every
   * refused code is reported as `discount_code_invalid`, never with an invented reason.
   */
  rejectionReasons: boolean;
  /** Eligibility claims (context.eligibility) the store prices for, e.g. "com.example.student". */
  acceptedClaims: string[];
  /** The finishing modes this adapter supports, preferred first (at least one). */
  finishing: FinishingMode[];
}

export interface CustomFilter {
  name: string;
  description: string;
  /** JSON Schema of the filter's value. */
  schema: Record<string, unknown>;
}

// ---------------------------------------------------------------- the request

/**
 * What the gateway saw of the request an adapter call serves (filled by the pipeline, never by
 * the caller's body), passed beside the call's own input (the last argument of `search`,
 * `quote`, `checkoutUrl`; `LookupOptions.context`), so it is never part of a query's or a cart's
 * identity (page tokens, fingerprints, caches). Stores that localize or guard per buyer use it;
 * an adapter that ignores it answers as for any buyer (the store's default language, no buyer
 * address forwarded). Absent when no request is behind the call (queued jobs, placeOrder).
 */
export interface RequestContext {
  /**
   * The buyer's client IP: the request's address, or the client named by trusted proxies
   * (`TRUST_PROXY`), never a proxy's. For stores that rate-limit or screen bots per buyer
   * (Shopify `Shopify-Storefront-Buyer-IP`). Personal data: adapters never log or keep it.
   */
  clientIp?: string;
  /** The buyer's language, a BCP 47 tag (`fr`, `pt-BR`): the first of `Accept-Language`. */
  language?: string;
}

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
  /**
   * The store's own cart for this session, as the adapter returned it with an earlier quote
   * (`Quote.handle`): update that cart instead of building a new one. Absent on the first call.
   * The request is always complete (lines, codes, buyer, fulfillment): the adapter brings the
   * store's cart to exactly this state. A handle the store no longer knows (expired cart) is
   * the adapter's to replace: build a new cart and return its handle.
   */
  handle?: string;
  /**
   * The gateway's id of the session being priced (its cart or checkout id), the `reference` a
   * later `checkoutUrl` will carry. A store that can keep it with a cart it creates (Shopify's
   * cart attributes in `cartCreate`) does so, and `checkoutUrl` then needs no call of its own.
   * Not part of what is priced: adapters that cannot keep it ignore it.
   */
  reference?: string;
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

/** Why a line cannot be bought as requested; `detail` is the store's own words, when it gave any. */
export type LineProblem = (
  | { lineId: string; code: 'not_found' }
  | { lineId: string; code: 'invalid_quantity' }
  | { lineId: string; code: 'out_of_stock' }
  | { lineId: string; code: 'discontinued' }
  /** Priced at the requested quantity; `available` is what can be sold (0 when an earlier line took it). */
  | { lineId: string; code: 'insufficient_stock'; available: number }
) & { detail?: string };

/**
 * Why a submitted code is not applied. The first six are the protocol's `discount_code_*` codes;
 * `not_applicable` (the code is valid but nothing in the cart qualifies: no eligible item, minimum
 * subtotal or quantity not reached) has no protocol code of its own.
 */
export type DiscountRejection =
  'expired' | 'invalid' | 'already_applied' | 'combination_disallowed' | 'user_not_logged_in' | 'user_ineligible' | 'not_applicable';

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
  /**
   * The store refused the destination's address (nothing is quoted for it): each refused field
   * (absent: the address as a whole) with the store's words, reported on the destination.
   */
  destinationProblems?: Array<{ field?: keyof PostalAddress; detail: string }>;
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
  /**
   * Opaque reference to the store's cart, draft order or session that holds this quote (a
   * Shopify cart id, a WooCommerce Cart-Token, a draft order id): JSON-serializable text of a
   * few KB at most. The gateway keeps it with the cart or checkout session (in the state store,
   * so every replica sees it) and sends it back in every later request of that session.
   * Absent: the store keeps nothing (the next quote starts from nothing, as the demo store does).
   */
  handle?: string;
  currency: string;
  /** Lines that can be priced (not those with not_found, invalid_quantity, out_of_stock, discontinued). */
  lines: QuotedLine[];
  lineProblems: LineProblem[];
  discounts: {
    /** Every active discount in stacking order, codes and automatic ones. */
    applied: AppliedDiscount[];
    /**
     * `index` is the position of the code in the submitted `discountCodes`. `reason` only when the
     * store said why (`capabilities.rejectionReasons`); absent: the gateway says `discount_code_invalid`.
     */
    rejected: Array<{ code: string; index: number; reason?: DiscountRejection; detail?: string }>;
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

/** The buyer's credential as a payment handler issued it (store_charged: the store charges it). */
export interface PaymentCredential {
  type: string;
  token: string;
}

export type OrderPayment =
  /** Captured by a gateway payment handler: the store records the order as paid. */
  | { mode: 'gateway_charged'; record: PaymentRecord }
  /**
   * The store charges `credential` (amount: `expectedTotal`), e.g. WooCommerce Store API checkout
   * with `payment_data`, a REST store's `POST /orders` with a token. Never kept or logged.
   */
  | { mode: 'store_charged'; handlerId: string; credential: PaymentCredential; billingAddress?: PostalAddress };

export interface PlaceOrderRequest {
  /**
   * Stable per checkout (the gateway's checkout id): a retry with the same reference MUST NOT
   * create a second order, and the store keeps it with the order (`OrderSnapshot.reference`).
   */
  reference: string;
  /** The checkout's final quote request (with its `handle`), every fulfillment group with its selected option. */
  quote: QuoteRequest;
  /** The total the buyer agreed to; the adapter refuses when the store's price moved. */
  expectedTotal: number;
  buyer: BuyerContact & { email: string };
  billingAddress?: PostalAddress;
  /**
   * Eligibility claims verified at completion (`verifyEligibility`); `quote.eligibilityClaims`
   * holds no other, so the order carries no unverified provisional discount.
   */
  verifiedClaims?: string[];
  payment: OrderPayment;
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
       * store cannot place (unknown item, no option selected); payment_declined: (store_charged)
       * the store refused the credential, nothing was charged.
       */
      reason: 'price_changed' | 'out_of_stock' | 'incomplete' | 'payment_declined';
      detail: string;
      actualTotal?: number;
    };

export interface OrderLine {
  /**
   * The line's id: the checkout's line id, or the store's own line id (a store that does not
   * keep the gateway's ids). Expectations, events and adjustments refer to lines by this id.
   */
  id: string;
  /**
   * The checkout's line id when the store kept it (a line item property, order meta) and `id`
   * is the store's own; the gateway then shows this id, so a protocol line id is the same in the
   * checkout and in every snapshot of the order.
   */
  checkoutLineId?: string;
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
  /** The store's customer the order belongs to, when it was placed by a signed-in customer. */
  customerId?: string;
  /** The email the order was placed with (a guest's typed email too): buyers are matched on it when no customer id is there. */
  buyerEmail?: string;
  /**
   * The store still waits for the buyer's payment (an order created unpaid and not paid since):
   * it does not complete a handed-off checkout; a later change that pays it does.
   */
  awaitingPayment?: boolean;
}

/** A webhook's headers as Node parses them: names lower-case, a header sent twice possibly an array. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * A verified backend webhook, reduced to what the gateway needs. `ping`: verified, nothing to do
 * (WooCommerce's first delivery, a REST store's test event); the gateway answers 2xx.
 */
export type BackendEvent =
  | {
      kind: 'order';
      /** The backend's delivery id, for deduplication. */
      eventId: string;
      orderId: string;
      /** The store's topic (`orders/create`, `order.updated`, ...), for logs. */
      topic: string;
      /**
       * The gateway's checkout reference when the event carries it (cart attribute, order meta);
       * absent: the gateway reads it from `getOrder(orderId).reference`.
       */
      reference?: string;
    }
  | { kind: 'ping'; eventId: string };

/** One order that changed on the store, for stores without webhooks (`ordersChangedSince`). */
export interface OrderChange {
  orderId: string;
  /** The gateway's checkout reference the order carries, when it has one. */
  reference?: string;
  /** RFC 3339: when the store last changed the order. */
  updatedAt: string;
}

/** The buyer whose eligibility claims are verified at completion. */
export interface EligibilityBuyer {
  contact?: BuyerContact;
  identity?: BuyerIdentity;
}

export interface EligibilityVerdict {
  claim: string;
  verified: boolean;
  /** Why not, for logs (never shown as the store's reason when absent). */
  detail?: string;
}

/** What `checkoutUrl` needs: the session's reference, its store cart, and what it holds. */
export interface CheckoutUrlRequest {
  /**
   * The gateway's id of the session (a checkout id, or a cart id for a cart's page). The store
   * keeps it with the order placed there (Shopify cart attribute, WooCommerce order meta, a REST
   * store's field), so the order is matched to the session later.
   */
  reference: string;
  /** The session's store cart (`Quote.handle`), when it has one. */
  handle?: string;
  /** What the session holds, as last priced (to build the store cart when there is no handle). */
  quote: QuoteRequest;
}

// ---------------------------------------------------------------- the adapter

/** What a buyer types on the gateway's login page. */
export interface CustomerCredentials {
  email: string;
  password: string;
}

/** A customer the store authenticated: its id in the store and the email the store verified. */
export interface AuthenticatedCustomer {
  customerId: string;
  email: string;
}

export interface Adapter {
  readonly kind: string;
  readonly capabilities: AdapterCapabilities;
  /** The store's home page: `continue_url` when there is nothing to hand over (an unknown cart). */
  readonly storefrontUrl: string;
  /**
   * Optional: true when the catalog and pricing reads (search, lookup, pickupLocations,
   * discoverFulfillment, quote, checkoutUrl) are computed in this process without I/O, as the
   * demo store's are. The gateway then runs them without a deadline (a timer cannot fire before a
   * synchronous computation returns, and arming one costs each call a controller and a timer);
   * retries and answer checks still apply. Orders and anything else keep their deadline.
   */
  readonly localReads?: boolean;

  search(query: SearchQuery, signal?: AbortSignal, context?: RequestContext): Promise<SearchPage>;
  /**
   * Resolves product ids, variant ids and the declared `lookupKeys` (SKU, handle). Each product
   * appears once, with all its variants; unknown ids are simply not in any `inputs`.
   */
  lookup(ids: string[], signal?: AbortSignal, options?: LookupOptions): Promise<LookupResult[]>;
  /** [] when the store has none (`capabilities.pickup` false). */
  pickupLocations(signal?: AbortSignal): Promise<PickupLocation[]>;
  /**
   * Per variant and method: can it reach this destination, and how (catalog `fulfills_to`).
   * Present exactly when `capabilities.fulfillmentDiscovery` is true.
   */
  discoverFulfillment?(query: FulfillmentDiscoveryQuery, signal?: AbortSignal): Promise<VariantFulfillment[]>;
  /**
   * Optional: the adapter calls `listener` when catalog data changed, and the gateway's catalog
   * cache drops what it holds of it. Without it, cached reads live for the tenant's
   * `catalog_cache_ttl_seconds`. Returns a function that stops the notifications.
   */
  onCatalogChange?(listener: (change: CatalogChange) => void): () => void;

  /**
   * Prices lines, discounts, fulfillment and tax exactly as the store's own checkout would, in
   * the store's own cart when the request carries a `handle` (and returns the handle to keep).
   * The gateway calls it before it writes the session, never inside a compare-and-set retry.
   */
  quote(request: QuoteRequest, signal?: AbortSignal, context?: RequestContext): Promise<Quote>;

  /**
   * The store's checkout page for this session, from the store (Shopify `cart.checkoutUrl`, a
   * draft order's `invoiceUrl`, WooCommerce's order `payment_url`), carrying `reference` so the
   * order placed there can be matched. May return a new `handle` (the store made a cart for it).
   */
  checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal, context?: RequestContext): Promise<{ url: string; handle?: string }>;

  /**
   * gateway_charged and store_charged only: places the order once per `reference`; concurrent
   * calls with one reference yield one order.
   */
  placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult>;
  findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl?: string } | null>;
  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null>;

  /**
   * Optional: verifies eligibility claims (context.eligibility) for this buyer at completion. Every
   * provisional discount whose claim is not verified here is dropped before the order is placed;
   * without this hook no claim is verified, so provisional discounts never reach an order.
   */
  verifyEligibility?(claims: string[], buyer: EligibilityBuyer, signal?: AbortSignal): Promise<EligibilityVerdict[]>;

  /** Verifies a backend webhook with the store's own scheme; null when it does not verify. */
  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer): BackendEvent | null;
  /**
   * Optional, for stores without webhooks: orders changed since `sinceIso` (inclusive), oldest
   * first. The gateway polls it and treats each change as an order event.
   */
  ordersChangedSince?(sinceIso: string, signal?: AbortSignal): Promise<OrderChange[]>;
  /**
   * How often the gateway polls `ordersChangedSince` when the tenant does not say
   * (`adapter.order_poll_seconds`); absent: every 60 s. A store whose webhooks are the main
   * source polls only to catch the deliveries it lost, less often.
   */
  readonly orderPollSeconds?: number;

  /**
   * Optional: the store's own customer login (identity linking). The customer's id in the store
   * and the email the store verified for it, or null when the email and password do not match a
   * customer. Without it (and without a federated provider) the tenant offers no identity linking.
   */
  authenticateCustomer?(credentials: CustomerCredentials, signal?: AbortSignal): Promise<AuthenticatedCustomer | null>;

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

/**
 * Thrown when the store answered something that cannot be used (a body that is not JSON, a
 * mapping that fails on it, an answer of the wrong shape): final, since the same call would
 * answer the same; the gateway answers `503 backend_invalid_response`.
 */
export class InvalidAnswerError extends BackendError {
  constructor(message: string) {
    super(message, false);
    this.name = 'InvalidAnswerError';
  }
}

/** An answer of the wrong shape or an unreadable body, named by the method that got it. */
export class InvalidBackendAnswer extends InvalidAnswerError {
  constructor(method: string, problem: string) {
    super(`backend ${method} answered an invalid ${problem}`);
    this.name = 'InvalidBackendAnswer';
  }
}

/** A stored value and its version: starts at 1 and grows by one on every write. */
export interface Versioned<T> {
  value: T;
  version: number;
}

/**
 * The gateway's state store as an adapter sees it (what every replica must see: orders of the demo
 * store, handoff records). The gateway passes its own store in; keys are the adapter's to namespace.
 */
export interface AdapterStore {
  get<T>(key: string): Promise<Versioned<T> | null>;
  /** Unconditional write; returns the new version. */
  set<T>(key: string, value: T, ttlMs: number): Promise<number>;
  /** Writes only when the key is absent; true when written. */
  setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean>;
  /** Writes only when the version is `expectedVersion` (0: absent); the new version, or null on conflict. */
  compareAndSet<T>(key: string, expectedVersion: number, value: T, ttlMs: number): Promise<number | null>;
  delete(key: string): Promise<void>;
}
