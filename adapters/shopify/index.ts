/**
 * The Shopify adapter: catalog and carts on the Storefront API (in the buyer's market), tax and
 * orders on the Admin API, finishing by handoff to Shopify's own checkout (the cart's
 * `checkoutUrl`, with the gateway's checkout id as a cart attribute that Shopify copies onto the
 * order) or, for a gateway payment handler, as a draft order completed paid; inbound webhooks
 * verified with the app secret. A façade over the catalog (catalog.ts), the carts (cart.ts), the
 * checkout's finishing (checkout.ts) and the orders (orders.ts), every call made through the
 * tenant's own ShopifyClient (@shopify/shopify-api).
 */
import type {
  Adapter,
  AdapterCapabilities,
  BackendEvent,
  CheckoutPage,
  CheckoutUrlRequest,
  LookupOptions,
  LookupResult,
  OrderLinks,
  OrderSnapshot,
  PickupLocation,
  PlaceOrderRequest,
  PlaceOrderResult,
  Quote,
  QuoteRequest,
  RequestContext,
  SearchPage,
  SearchQuery,
  StoreSetup,
  WebhookHeaders,
} from '../contract.js';
import { apiVersionStatus } from './api-version.js';
import { ShopifyCarts } from './cart.js';
import { ShopifyCatalog } from './catalog.js';
import { ShopifyCheckout } from './checkout.js';
import { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { ShopifyOrders } from './orders.js';
import { pageTokens } from './search.js';
import type { ShopifyConfig, ShopifyCredentials } from './settings.js';
import { Storefronts } from './storefront.js';
import { ORDER_TOPICS, registerWebhooks, verifyShopifyWebhook, webhookSubscriptions } from './webhooks.js';

const capabilitiesOf = (settings: ShopifyConfig): AdapterCapabilities => ({
  lookupKeys: ['sku', 'handle'],
  customFilters: [
    {
      name: 'available',
      description: 'true: only products with a variant for sale now; false: only those without.',
      schema: { type: 'boolean' },
    },
  ],
  currencies: [...new Set(settings.markets.map((m) => m.currency))],
  quotesShipping: true,
  quotesTax: true,
  pickup: true,
  locationStock: true,
  multiGroup: false,
  fulfillmentDiscovery: false,
  rejectionReasons: false,
  acceptedClaims: [],
  finishing: ['handoff', 'gateway_charged'],
  // The reference as a cart attribute and draft order tag; the cart as the order's `cartToken`.
  orderLinks: ['reference', 'store_reference'],
});

export class ShopifyAdapter implements Adapter {
  readonly kind = 'shopify';
  readonly capabilities: AdapterCapabilities;
  readonly storefrontUrl: string;
  private readonly catalog: ShopifyCatalog;
  private readonly carts: ShopifyCarts;
  private readonly checkout: ShopifyCheckout;
  private readonly orders: ShopifyOrders;
  /** The shop's answers about its API version and the app's webhook subscriptions (all active: Shopify has no paused state). */
  readonly setup: StoreSetup;

  constructor(
    settings: ShopifyConfig,
    private readonly credentials: ShopifyCredentials,
    private readonly client: ShopifyClient = new ShopifyClient(settings, credentials),
  ) {
    this.storefrontUrl = (settings.storefront_url ?? `https://${settings.shop}`).replace(/\/+$/, '');
    this.capabilities = capabilitiesOf(settings);
    const storefronts = new Storefronts(client, settings);
    // Page tokens keyed with the Storefront token: a store secret, the same on every replica.
    this.catalog = new ShopifyCatalog(client, storefronts, this.storefrontUrl, pageTokens(credentials.storefront_token));
    this.carts = new ShopifyCarts(client, storefronts, settings);
    this.orders = new ShopifyOrders(client);
    this.checkout = new ShopifyCheckout(client, this.carts, this.orders);
    this.setup = {
      apiVersion: (signal) => apiVersionStatus(client, settings.api_version, signal),
      webhooks: async (signal) => ({
        needed: ORDER_TOPICS,
        registered: (await webhookSubscriptions(client, signal)).map((s) => ({ topic: s.topic, url: s.uri, active: true })),
      }),
    };
  }

  search(query: SearchQuery, signal?: AbortSignal, context?: RequestContext): Promise<SearchPage> {
    return this.catalog.search(query, signal, context);
  }

  lookup(ids: string[], signal?: AbortSignal, options?: LookupOptions): Promise<LookupResult[]> {
    return this.catalog.lookup(ids, signal, options);
  }

  pickupLocations(signal?: AbortSignal): Promise<PickupLocation[]> {
    return this.catalog.pickupLocations(signal);
  }

  quote(request: QuoteRequest, signal?: AbortSignal, context?: RequestContext): Promise<Quote> {
    return this.carts.quote(request, signal, context);
  }

  checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal, context?: RequestContext): Promise<CheckoutPage> {
    return this.checkout.checkoutUrl(request, signal, context);
  }

  placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    return this.checkout.placeOrder(request, signal);
  }

  findOrderByReference(
    reference: string,
    signal?: AbortSignal,
    links?: OrderLinks,
  ): Promise<{ orderId: string; permalinkUrl?: string } | null> {
    return this.orders.findOrderByReference(reference, signal, links);
  }

  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    return this.orders.getOrder(orderId, signal);
  }

  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer): BackendEvent | null {
    return verifyShopifyWebhook(this.credentials.webhook_secret ?? this.credentials.client_secret!, headers, rawBody);
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.client.admin(Q.SHOP, {}, signal);
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Every webhook subscription of the app on this shop. */
  webhookSubscriptions(signal?: AbortSignal): Promise<Array<{ topic: string; uri: string }>> {
    return webhookSubscriptions(this.client, signal);
  }

  /** Subscribes `callbackUrl` to every order topic the gateway reads; topics already subscribed are left alone. */
  registerWebhooks(callbackUrl: string, signal?: AbortSignal): Promise<{ created: string[]; existing: string[] }> {
    return registerWebhooks(this.client, callbackUrl, signal);
  }
}

export function createShopifyAdapter(settings: ShopifyConfig, credentials: ShopifyCredentials): ShopifyAdapter {
  return new ShopifyAdapter(settings, credentials);
}
