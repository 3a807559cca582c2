/**
 * The WooCommerce adapter: a merchant's WooCommerce store behind the gateway, unchanged.
 * Catalog and orders through the REST API (`wc/v3`), carts,
 * shipping rates, tax and coupons through the Store API (`wc/store/v1`, the store's own cart,
 * kept by its Cart-Token as the quote handle), checkouts finished in the tenant's mode
 * (gateway_charged, store_charged, handoff), store webhooks verified and reduced to events.
 * docs/adapters/woocommerce.md says how a merchant sets the store up.
 */
import { LRUCache } from 'lru-cache';
import { currencyExponent } from '../kit/money.js';
import type {
  Adapter,
  AdapterCapabilities,
  BackendEvent,
  CatalogChange,
  CheckoutUrlRequest,
  FinishingMode,
  LookupResult,
  OrderChange,
  OrderLinks,
  OrderSnapshot,
  PickupLocation,
  PlaceOrderRequest,
  PlaceOrderResult,
  Quote,
  QuoteRequest,
  SearchPage,
  SearchQuery,
  StoreSetup,
} from '../contract.js';
import type { AdapterStore } from '../contract.js';
import { Catalog } from './catalog.js';
import { CouponReasons } from './coupon-reasons.js';
import { Handoff, sessionFingerprint } from './handoff.js';
import { WooHttp } from './http.js';
import { OrderReads } from './order-reads.js';
import { OrderDesk } from './orders.js';
import { PageTokens } from './page-token.js';
import { quoteInStore } from './quote.js';
import type { WooCommerceSettings } from './settings.js';
import { StoreCartClient } from './store-cart.js';
import { StoreInfo, type StoreFacts } from './store-info.js';
import { storeSetup } from './store-setup.js';
import { verifyDelivery } from './webhooks.js';

export { WooCommerceSettings, CREDENTIALS } from './settings.js';

export interface WooCommerceAdapterOptions {
  settings: WooCommerceSettings;
  consumerKey: string;
  consumerSecret: string;
  /** The secret the store's webhooks are signed with; without it no delivery verifies (pings aside). */
  webhookSecret?: string;
  store: AdapterStore;
  tenantId: string;
  now: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CACHE_SECONDS = 300;
/** How recent a quote of the same session must be for placement to skip re-pricing. */
const PLACEMENT_FRESH_MS = 5_000;

export class WooCommerceAdapter implements Adapter {
  readonly kind = 'woocommerce';
  readonly capabilities: AdapterCapabilities;
  readonly storefrontUrl: string;
  readonly http: WooHttp;
  /** The store's answers about its WooCommerce release and its webhooks (store-setup.ts). */
  readonly setup: StoreSetup;
  private readonly info: StoreInfo;
  private readonly catalog: Catalog;
  private readonly cart: StoreCartClient;
  private readonly reasons: CouponReasons;
  private readonly orders: OrderDesk;
  private readonly reads: OrderReads;
  private readonly handoff: Handoff;
  private readonly listeners = new Set<(change: CatalogChange) => void>();
  /** Quotes just priced, by store cart and session content, so checkoutUrl and placeOrder do not price twice. */
  private readonly recent = new LRUCache<string, { quote: Quote; at: number }>({ max: 1000, ttl: 60_000 });

  constructor(
    private readonly options: WooCommerceAdapterOptions,
    facts: StoreFacts,
  ) {
    const { settings } = options;
    this.storefrontUrl = settings.store_url.replace(/\/+$/, '');
    const cacheMs = (settings.cache_seconds ?? DEFAULT_CACHE_SECONDS) * 1000;
    this.http = new WooHttp({
      storeUrl: this.storefrontUrl,
      consumerKey: options.consumerKey,
      consumerSecret: options.consumerSecret,
      queryStringAuth: settings.query_string_auth ?? false,
      timeoutMs: settings.request_timeout_ms ?? DEFAULT_TIMEOUT_MS,
    });
    this.info = new StoreInfo(this.http, facts);
    this.setup = storeSetup(this.http);
    this.catalog = new Catalog(this.http, this.info, new PageTokens(options.consumerSecret), {
      discontinuedTag: settings.discontinued_tag ?? 'discontinued',
      cacheMs,
    });
    this.cart = new StoreCartClient(this.http);
    this.reasons = new CouponReasons(this.http, cacheMs, options.now);
    const finishing: FinishingMode[] = settings.store_charged
      ? ['store_charged', 'gateway_charged', 'handoff']
      : ['gateway_charged', 'handoff'];
    this.capabilities = {
      lookupKeys: ['sku', 'handle'],
      customFilters: [
        {
          name: 'stock_status',
          description:
            "The store's stock status: instock, outofstock or onbackorder (a variable product has the best status of its variations).",
          schema: { type: 'string', enum: ['instock', 'outofstock', 'onbackorder'] },
        },
      ],
      currencies: [facts.currency],
      quotesShipping: true,
      quotesTax: true,
      pickup: false,
      locationStock: false,
      multiGroup: true,
      fulfillmentDiscovery: false,
      rejectionReasons: true,
      acceptedClaims: [],
      finishing,
    };
    const shared = {
      http: this.http,
      info: this.info,
      catalog: this.catalog,
      state: options.store,
      tenantId: options.tenantId,
      storeUrl: this.storefrontUrl,
    };
    // A placement re-prices unless the gateway priced this very session moments ago.
    this.orders = new OrderDesk({
      ...shared,
      now: options.now,
      settings,
      quote: (request, signal) => this.priced(request, request.handle, PLACEMENT_FRESH_MS, signal),
    });
    this.reads = new OrderReads(shared);
    this.handoff = new Handoff({ ...shared, priced: (request, handle, signal) => this.priced(request, handle, 60_000, signal) });
  }

  search(query: SearchQuery, signal?: AbortSignal): Promise<SearchPage> {
    return this.catalog.search(query, signal);
  }

  lookup(ids: string[], signal?: AbortSignal): Promise<LookupResult[]> {
    return this.catalog.lookup(ids, signal);
  }

  /** WooCommerce's pickup locations are shipping rates, not a list with stock: none declared. */
  async pickupLocations(): Promise<PickupLocation[]> {
    return [];
  }

  onCatalogChange(listener: (change: CatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async quote(request: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
    const quote = await quoteInStore({ catalog: this.catalog, cart: this.cart, reasons: this.reasons, info: this.info }, request, signal);
    if (quote.handle) this.recent.set(`${quote.handle}|${sessionFingerprint(request)}`, { quote, at: Date.now() });
    return quote;
  }

  /** The quote of this session content in this store cart, priced at most `maxAgeMs` ago (or now). */
  private async priced(request: QuoteRequest, handle: string | undefined, maxAgeMs: number, signal?: AbortSignal): Promise<Quote> {
    const recent = handle ? this.recent.get(`${handle}|${sessionFingerprint(request)}`) : undefined;
    if (recent && Date.now() - recent.at <= maxAgeMs) return recent.quote;
    return this.quote({ ...request, ...(handle && { handle }) }, signal);
  }

  checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal): Promise<{ url: string; handle?: string }> {
    return this.handoff.checkoutUrl(request, signal);
  }

  placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    return this.orders.placeOrder(request, signal);
  }

  /** The store keeps the reference on its orders (`_proto_reference`): the links the gateway knows are not needed. */
  async findOrderByReference(
    reference: string,
    signal?: AbortSignal,
    _links?: OrderLinks,
  ): Promise<{ orderId: string; permalinkUrl?: string } | null> {
    const placed = await this.orders.findOrderByReference(reference, signal);
    if (placed) return placed;
    // A handed-off session's order counts once the buyer paid for it on the store.
    const handedOff = await this.handoff.orderOf(reference);
    if (handedOff) return this.orders.ifPaid(handedOff, signal);
    return this.orders.placedOnStore(reference, signal);
  }

  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    return this.reads.getOrder(orderId, signal);
  }

  /** Reconciliation behind the webhooks: a delivery WooCommerce lost is never retried. */
  readonly orderPollSeconds = 300;

  ordersChangedSince(sinceIso: string, signal?: AbortSignal): Promise<OrderChange[]> {
    return this.reads.changedSince(sinceIso, signal);
  }

  verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): BackendEvent | null {
    return verifyDelivery(this.options.webhookSecret, headers, rawBody, (change) => {
      for (const listener of this.listeners) listener(change);
    });
  }

  async close(): Promise<void> {
    await this.http.close();
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.info.refresh(signal);
  }
}

/**
 * Reads the store's currency first; a store that cannot be reached at start-up is served with the
 * tenant's `currency` setting when it has one (the store's facts are read again on the readiness
 * probe), and fails start-up otherwise.
 */
export async function createWooCommerceAdapter(options: WooCommerceAdapterOptions): Promise<WooCommerceAdapter> {
  const http = new WooHttp({
    storeUrl: options.settings.store_url.replace(/\/+$/, ''),
    consumerKey: options.consumerKey,
    consumerSecret: options.consumerSecret,
    queryStringAuth: options.settings.query_string_auth ?? false,
    timeoutMs: options.settings.request_timeout_ms ?? DEFAULT_TIMEOUT_MS,
  });
  const configured = options.settings.currency;
  const facts = await new StoreInfo(http).get(AbortSignal.timeout(5_000)).catch((error: unknown) => {
    if (!configured) throw error;
    return { currency: configured, decimals: currencyExponent(configured) };
  });
  return new WooCommerceAdapter(options, facts);
}
