/**
 * The demo store adapter: a flower shop served from the files of config/demo (catalog, discounts,
 * shipping, tax in memory, identical on every replica) with its orders in the gateway's state
 * store. It implements the whole contract, so every protocol feature can be tried without any
 * other service, and adds `simulate` to move orders along for demos and tests.
 */
import { join } from 'node:path';
import type {
  Adapter,
  AdapterCapabilities,
  BackendEvent,
  CheckoutUrlRequest,
  EligibilityBuyer,
  EligibilityVerdict,
  OrderChange,
  FulfillmentDiscoveryQuery,
  LookupResult,
  OrderSnapshot,
  PickupLocation,
  PlaceOrderRequest,
  PlaceOrderResult,
  PostalAddress,
  Quote,
  QuoteRequest,
  SearchPage,
  SearchQuery,
  VariantFulfillment,
} from '../contract.js';
import type { AdapterStore } from '../contract.js';
import { customerLogins, type CustomerLogin } from './customer-logins.js';
import { loadStore } from './data/load-store.js';
import { discoverFulfillment } from './discovery.js';
import { verifyClaims } from './eligibility.js';
import { lookup } from './lookup.js';
import type { StoreData } from './model.js';
import { OrderBook } from './orders.js';
import { quote } from './quote.js';
import { buildSearchIndex, pageTokens, search } from './search.js';
import { SimulationError, type OrderSimulator } from '../simulator.js';
import { simulate, SimulationParams, type SimulationAction } from './simulation.js';
import { checkoutPage, StorefrontError, storefrontPurchase, type StorefrontBuyer } from './storefront.js';
import { signWebhook, verifyWebhook, type DemoTopic, type SignedWebhook } from './webhooks.js';

export { StorefrontError } from './storefront.js';

export interface MemoryAdapterOptions {
  /** Folder holding catalog.yaml, discounts.yaml, ... and the flower shop's CSV files. */
  dataDir: string;
  /**
   * Base URL of the demo storefront (product pages, cart permalinks, tracking pages); no trailing
   * slash. Nothing serves order pages there, so orders carry no permalink: the gateway serves one.
   */
  storefrontUrl: string;
  now: () => number;
  store: AdapterStore;
  /** Namespaces the orders in the state store. */
  tenantId: string;
  /** How long orders are kept; default 90 days. */
  orderRetentionMs?: number;
  /** Signs the store's webhooks (`X-Demo-Webhook-Signature`); without it the store sends none and verifies none. */
  webhookSecret?: string;
}

const DEFAULT_RETENTION_MS = 90 * 86_400_000;

export class MemoryAdapter implements Adapter, OrderSimulator {
  readonly kind = 'memory';
  /** Catalog and prices live in this process; orders go through the state store (Redis, say). */
  readonly localReads = true;
  readonly capabilities: AdapterCapabilities;
  private readonly index: ReturnType<typeof buildSearchIndex>;
  private readonly pageTokens: ReturnType<typeof pageTokens>;
  private readonly orders: OrderBook;
  /** Present when the data folder has customer_logins.csv (customer-logins.ts). */
  readonly authenticateCustomer?: CustomerLogin;

  constructor(
    private readonly data: StoreData,
    private readonly options: MemoryAdapterOptions,
  ) {
    this.index = buildSearchIndex(data);
    // The demo store has no store secret of its own: its webhook secret keys the tokens when it has
    // one (else only the tenant id does); agents hold them inside the gateway's own signed cursor.
    this.pageTokens = pageTokens(JSON.stringify([options.tenantId, options.webhookSecret ?? null]));
    const login = customerLogins(options.dataDir, data.customerEmails);
    if (login) this.authenticateCustomer = login;
    this.orders = new OrderBook({
      store: options.store,
      tenantId: options.tenantId,
      retentionMs: options.orderRetentionMs ?? DEFAULT_RETENTION_MS,
      now: options.now,
    });
    this.capabilities = {
      lookupKeys: ['sku', 'handle'],
      customFilters: [
        {
          name: 'available',
          description:
            'true: only products with a variant that can be bought now (in stock, backorder or preorder); false: only those without.',
          schema: { type: 'boolean' },
        },
      ],
      currencies: [data.currency],
      quotesShipping: true,
      quotesTax: true,
      pickup: data.locations.length > 0,
      locationStock: data.locations.length > 0,
      multiGroup: true,
      fulfillmentDiscovery: true,
      rejectionReasons: true,
      acceptedClaims: [...new Set(data.promotions.flatMap((p) => (p.eligibility ? [p.eligibility] : [])))],
      finishing: ['gateway_charged', 'handoff'],
    };
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    return search(this.data, this.index, this.pageTokens, query);
  }

  async lookup(ids: string[]): Promise<LookupResult[]> {
    return lookup(this.data, ids);
  }

  async pickupLocations(): Promise<PickupLocation[]> {
    return this.data.locations.map((l) => l.location);
  }

  async discoverFulfillment(query: FulfillmentDiscoveryQuery): Promise<VariantFulfillment[]> {
    return discoverFulfillment(this.data, query, this.options.now());
  }

  async quote(request: QuoteRequest): Promise<Quote> {
    return quote(this.data, request, this.options.now());
  }

  placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    return this.orders.place(this.data, request);
  }

  findOrderByReference(reference: string): Promise<{ orderId: string } | null> {
    return this.orders.findByReference(reference);
  }

  async getOrder(orderId: string): Promise<OrderSnapshot | null> {
    return (await this.orders.get(orderId))?.snapshot ?? null;
  }

  /** The simulator's actions (ship, deliver, refund, return, cancel, ...) and their parameters. */
  readonly actions = SimulationParams;

  /** Moves an order along and returns the fresh snapshot. */
  async simulate(orderId: string, action: SimulationAction): Promise<OrderSnapshot> {
    const ctx = { now: new Date(this.options.now()).toISOString(), storefrontUrl: this.options.storefrontUrl };
    const updated = await this.orders.update(orderId, (order) => simulate(order, action, ctx));
    if (!updated) throw new SimulationError('not_found', `no order ${orderId}`);
    return updated.snapshot;
  }

  get storefrontUrl(): string {
    return this.options.storefrontUrl;
  }

  /** The storefront's pages and images (data_dir/storefront), which the gateway serves at storefrontUrl. */
  get storefrontDir(): string {
    return join(this.options.dataDir, 'storefront');
  }

  /** A cart permalink with the accepted codes and the reference (storefront.ts); the demo store keeps no cart, so no handle. */
  async checkoutUrl(request: CheckoutUrlRequest): Promise<{ url: string }> {
    return { url: checkoutPage(this.data, this.options.storefrontUrl, request, this.options.now()) };
  }

  /**
   * A buyer pays on the checkout page at `url` (a handed-off checkout), shipping to `address`:
   * the order is placed on the store with the page's reference, as the storefront would.
   */
  async purchase(url: string, address: PostalAddress, buyer: StorefrontBuyer): Promise<{ orderId: string; reference: string }> {
    const { reference, request, total } = storefrontPurchase(this.data, this.options.storefrontUrl, url, address, this.options.now());
    const paid = { handlerId: 'storefront', transactionId: `sf_${reference}`, amount: total };
    const payment = { mode: 'gateway_charged' as const, record: paid };
    const placed = await this.orders.place(this.data, { reference, quote: request, expectedTotal: total, buyer, payment }, true);
    if (placed.status !== 'placed') throw new StorefrontError(`the storefront could not place the order: ${JSON.stringify(placed)}`);
    return { orderId: placed.orderId, reference };
  }

  /** The webhook the store sends about an order (or a ping); null without a webhook secret. */
  async webhookFor(topic: DemoTopic, orderId?: string): Promise<SignedWebhook | null> {
    const secret = this.options.webhookSecret;
    if (!secret) return null;
    const order = orderId === undefined ? undefined : await this.getOrder(orderId);
    return signWebhook(secret, topic, order ? { orderId: order.id, ...(order.reference && { reference: order.reference }) } : undefined);
  }

  verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): BackendEvent | null {
    return verifyWebhook(this.options.webhookSecret, headers, rawBody);
  }

  /** From config/demo/eligibility.yaml (eligibility.ts). */
  async verifyEligibility(claims: string[], buyer: EligibilityBuyer): Promise<EligibilityVerdict[]> {
    return verifyClaims(this.data, claims, buyer);
  }

  /** From the store's change log of storefront orders (a store without webhooks is polled this way). */
  ordersChangedSince(sinceIso: string): Promise<OrderChange[]> {
    return this.orders.changedSince(Date.parse(sinceIso));
  }

  async ping(): Promise<void> {}
}

export async function createMemoryAdapter(options: MemoryAdapterOptions): Promise<MemoryAdapter> {
  return new MemoryAdapter(loadStore(options.dataDir, options.storefrontUrl), options);
}
