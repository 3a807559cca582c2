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
  CheckoutPage,
  CheckoutUrlRequest,
  EligibilityBuyer,
  EligibilityVerdict,
  OrderChange,
  FulfillmentDiscoveryQuery,
  LookupResult,
  OrderLink,
  OrderLinks,
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
import { cardOutcome, PaymentBook } from './payments.js';
import { quote } from './quote.js';
import { buildSearchIndex, pageTokens, search } from './search.js';
import { SimulationError, type OrderSimulator } from '../simulator.js';
import { simulate, SimulationParams, type SimulationAction } from './simulation.js';
import { checkoutPage, paymentPage, StorefrontError, storefrontPurchase, type StorefrontBuyer } from './storefront.js';
import { signWebhook, verifyWebhook, type DemoTopic, type SignedWebhook } from './webhooks.js';

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
  /** The catalog and shipping prices contain the tax (VAT-style): quotes show it as included, adding none. */
  pricesIncludeTax?: boolean;
  /**
   * How its orders are tied to checkouts (default both): `reference`, the gateway's reference is
   * kept with the order; `store_reference`, the store names its own (a payment, a checkout page's
   * cart). Without `reference` it plays a store that knows orders only by its own references.
   */
  orderLinks?: OrderLink[];
}

const DEFAULT_RETENTION_MS = 90 * 86_400_000;
const DEFAULT_LINKS: OrderLink[] = ['reference', 'store_reference'];

export class MemoryAdapter implements Adapter, OrderSimulator {
  readonly kind = 'memory';
  /** Catalog and prices live in this process; orders go through the state store (Redis, say). */
  readonly localReads = true;
  readonly capabilities: AdapterCapabilities;
  private readonly index: ReturnType<typeof buildSearchIndex>;
  private readonly pageTokens: ReturnType<typeof pageTokens>;
  private readonly orders: OrderBook;
  private readonly payments: PaymentBook;
  private readonly keepsReference: boolean;
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
    const links = options.orderLinks ?? DEFAULT_LINKS;
    this.keepsReference = links.includes('reference');
    const book = { store: options.store, tenantId: options.tenantId, retentionMs: options.orderRetentionMs ?? DEFAULT_RETENTION_MS };
    this.orders = new OrderBook({ ...book, now: options.now, keepsReference: this.keepsReference });
    this.payments = new PaymentBook(book);
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
      finishing: ['gateway_charged', 'store_charged', 'handoff'],
      orderLinks: links,
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

  /** A card its issuer challenges waits on the store's payment page (payments.ts); anything else is placed or refused now. */
  async placeOrder(request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const { payment } = request;
    if (payment.mode !== 'store_charged' || cardOutcome(payment.credential.token) !== 'challenge')
      return this.orders.place(this.data, request);
    const placed = await this.orders.find(request.reference);
    if (placed) return { status: 'placed', ...placed };
    const refused = this.orders.orderRefusal(this.data, request);
    if (refused) return refused;
    const waiting = await this.payments.open(request);
    const continueUrl = paymentPage(this.options.storefrontUrl, waiting.id);
    return {
      status: 'requires_action',
      continueUrl,
      detail: 'The card issuer asks the buyer to confirm this payment',
      storeReference: waiting.id,
    };
  }

  findOrderByReference(reference: string, _signal?: AbortSignal, links?: OrderLinks): Promise<{ orderId: string } | null> {
    return this.orders.find(reference, links);
  }

  /**
   * The buyer acts on the store's payment page at `url` (`requires_action`): `approve`, the store
   * charges and places the order (paid, with the payment as its store reference); `fail`, nothing
   * is placed. The order id, or null when the buyer failed. Throws StorefrontError for a page
   * that is not a payment waiting for the buyer.
   */
  async confirmPayment(url: string, outcome: 'approve' | 'fail'): Promise<{ orderId: string } | null> {
    const id = new URL(url).pathname.split('/').at(-1) ?? '';
    const waiting = await this.payments.get(id);
    if (!url.startsWith(`${this.options.storefrontUrl}/pay/`) || waiting?.status !== 'waiting')
      throw new StorefrontError(`${url} is not a payment waiting for the buyer`);
    if (outcome === 'fail') {
      await this.payments.settle(id, 'failed', 'waiting');
      return null;
    }
    const { request } = waiting;
    const paid = {
      mode: 'gateway_charged' as const,
      record: { handlerId: 'store', transactionId: `sf_${id}`, amount: request.expectedTotal },
    };
    const placed = await this.orders.place(this.data, { ...request, payment: paid }, { paidOnStore: true, storeReference: id });
    if (placed.status !== 'placed') throw new StorefrontError(`the store could not place the order: ${JSON.stringify(placed)}`);
    await this.payments.settle(id, 'paid', 'waiting', placed.orderId);
    return { orderId: placed.orderId };
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

  /**
   * A cart permalink with the accepted codes and the reference, or, for a store that keeps no
   * reference, its own cart reference (storefront.ts); the demo store keeps no cart, so no handle.
   */
  async checkoutUrl(request: CheckoutUrlRequest): Promise<CheckoutPage> {
    return checkoutPage(this.data, this.options.storefrontUrl, request, this.options.now(), this.keepsReference);
  }

  /**
   * A buyer pays on the checkout page at `url` (a handed-off checkout), shipping to `address`:
   * the order is placed on the store with the page's reference, as the storefront would.
   */
  async purchase(url: string, address: PostalAddress, buyer: StorefrontBuyer): Promise<{ orderId: string; reference: string }> {
    const bought = storefrontPurchase(this.data, this.options.storefrontUrl, url, address, this.options.now());
    const { reference, storeReference, request, total } = bought;
    const paid = { handlerId: 'storefront', transactionId: `sf_${reference}`, amount: total };
    const payment = { mode: 'gateway_charged' as const, record: paid };
    const placing = { paidOnStore: true, ...(storeReference && { storeReference }) };
    const placed = await this.orders.place(this.data, { reference, quote: request, expectedTotal: total, buyer, payment }, placing);
    if (placed.status !== 'placed') throw new StorefrontError(`the storefront could not place the order: ${JSON.stringify(placed)}`);
    return { orderId: placed.orderId, reference };
  }

  /** The webhook the store sends about an order (or a ping); null without a webhook secret. */
  async webhookFor(topic: DemoTopic, orderId?: string): Promise<SignedWebhook | null> {
    const secret = this.options.webhookSecret;
    if (!secret) return null;
    const order = orderId === undefined ? undefined : await this.getOrder(orderId);
    const about = order
      ? {
          orderId: order.id,
          ...(order.reference && { reference: order.reference }),
          ...(order.storeReference && { storeReference: order.storeReference }),
        }
      : undefined;
    return signWebhook(secret, topic, about);
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
  const data = loadStore(options.dataDir, options.storefrontUrl);
  return new MemoryAdapter(options.pricesIncludeTax ? { ...data, tax: { ...data.tax, included: true } } : data, options);
}
