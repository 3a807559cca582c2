/** The adapter itself: every call the gateway makes of a store. */
import type { AuthenticatedCustomer, CustomerCredentials, EligibilityBuyer, EligibilityVerdict } from './buyer.js';
import type { AdapterCapabilities } from './capabilities.js';
import type {
  FulfillmentDiscoveryQuery,
  LookupOptions,
  LookupResult,
  PickupLocation,
  SearchPage,
  SearchQuery,
  VariantFulfillment,
} from './catalog.js';
import type { BackendEvent, CatalogChange, OrderChange, WebhookHeaders } from './events.js';
import type { OrderLinks, OrderSnapshot, PlaceOrderRequest, PlaceOrderResult } from './orders.js';
import type { CheckoutPage, CheckoutUrlRequest, Quote, QuoteRequest } from './quote.js';
import type { RequestContext } from './shared.js';
import type { StoreSetup } from './setup.js';

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
   * order placed there can be matched. May return a new `handle` (the store made a cart for it),
   * and the `storeReference` the order placed there will carry (a store that keeps no reference).
   */
  checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal, context?: RequestContext): Promise<CheckoutPage>;

  /**
   * gateway_charged and store_charged only: places the order once per `reference`; concurrent
   * calls with one reference yield one order.
   */
  placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult>;
  /**
   * The order placed for `reference`, if any. `links`: what else the gateway knows of it (the
   * store-side reference named at placement or handoff, the session's store cart), for a store
   * that does not keep the gateway's reference; adapters of stores that do may ignore it.
   */
  findOrderByReference(
    reference: string,
    signal?: AbortSignal,
    links?: OrderLinks,
  ): Promise<{ orderId: string; permalinkUrl?: string } | null>;
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
  /**
   * Optional: read-only answers about the store's own setup (its API version, the webhooks it
   * sends where) for operators' checks (`npm run tenant -- check`); never called on a request.
   */
  readonly setup?: StoreSetup;
  close?(): Promise<void>;
}
