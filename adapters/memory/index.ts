/**
 * The demo store adapter: a flower shop served from the files of config/demo (catalog, discounts,
 * shipping, tax in memory, identical on every replica) with its orders in the gateway's state
 * store. It implements the whole contract, so every protocol feature can be tried without any
 * other service, and adds `simulate` to move orders along for demos and tests.
 */
import type {
  Adapter,
  AdapterCapabilities,
  CheckoutUrlRequest,
  FulfillmentDiscoveryQuery,
  LookupResult,
  OrderSnapshot,
  PickupLocation,
  PlaceOrderRequest,
  PlaceOrderResult,
  Quote,
  QuoteRequest,
  SearchPage,
  SearchQuery,
  VariantFulfillment,
} from '../contract.js';
import type { StateStore } from '../../src/state/store.js';
import { loadStore } from './data/load-store.js';
import { discoverFulfillment } from './discovery.js';
import { lookup } from './lookup.js';
import type { StoreData } from './model.js';
import { OrderBook } from './orders.js';
import { quote } from './quote.js';
import { buildSearchIndex, search } from './search.js';
import { simulate, SimulationError, type SimulationAction } from './simulation.js';

export { SimulationError, type SimulationAction } from './simulation.js';

export interface MemoryAdapterOptions {
  /** Folder holding catalog.yaml, discounts.yaml, ... and the flower shop's CSV files. */
  dataDir: string;
  /**
   * Base URL of the demo storefront (product pages, cart permalinks, tracking pages); no trailing
   * slash. Nothing serves order pages there, so orders carry no permalink: the gateway serves one.
   */
  storefrontUrl: string;
  now: () => number;
  store: StateStore;
  /** Namespaces the orders in the state store. */
  tenantId: string;
  /** How long orders are kept; default 90 days. */
  orderRetentionMs?: number;
}

const DEFAULT_RETENTION_MS = 90 * 86_400_000;

export class MemoryAdapter implements Adapter {
  readonly kind = 'memory';
  readonly capabilities: AdapterCapabilities;
  private readonly index: ReturnType<typeof buildSearchIndex>;
  private readonly orders: OrderBook;

  constructor(
    private readonly data: StoreData,
    private readonly options: MemoryAdapterOptions,
  ) {
    this.index = buildSearchIndex(data);
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
          description: 'true: only products with a variant that can be bought now (in stock, backorder or preorder); false: only those without.',
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
    return search(this.data, this.index, query);
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

  /** Moves an order along (ship, deliver, refund, return, cancel) and returns the fresh snapshot. */
  async simulate(orderId: string, action: SimulationAction): Promise<OrderSnapshot> {
    const ctx = { now: new Date(this.options.now()).toISOString(), storefrontUrl: this.options.storefrontUrl };
    const updated = await this.orders.update(orderId, (order) => simulate(order, action, ctx));
    if (!updated) throw new SimulationError('not_found', `no order ${orderId}`);
    return updated.snapshot;
  }

  get storefrontUrl(): string {
    return this.options.storefrontUrl;
  }

  /**
   * Shopify cart-permalink style, {storefront}/cart/{variantId}:{qty},...?discount=A,B&ref=REF,
   * with the codes the store accepts; the demo store keeps no cart, so no handle.
   */
  async checkoutUrl(request: CheckoutUrlRequest): Promise<{ url: string }> {
    const priced = quote(this.data, request.quote, this.options.now());
    const items = priced.lines.map((l) => `${encodeURIComponent(l.variantId)}:${l.quantity}`).join(',');
    const codes = priced.discounts.applied.flatMap((d) => (d.code ? [d.code] : []));
    const query = new URLSearchParams({ ...(codes.length > 0 && { discount: codes.join(',') }), ref: request.reference });
    return { url: `${this.options.storefrontUrl}/cart/${items}?${query.toString().replace(/%2C/g, ',')}` };
  }

  /** The demo store sends no backend webhooks. */
  verifyWebhook(): null {
    return null;
  }

  async ping(): Promise<void> {}
}

export async function createMemoryAdapter(options: MemoryAdapterOptions): Promise<MemoryAdapter> {
  return new MemoryAdapter(loadStore(options.dataDir, options.storefrontUrl), options);
}
