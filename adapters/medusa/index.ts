/**
 * The Medusa v2 adapter, on the official @medusajs/js-sdk (the server's minor version): the
 * catalog and carts through the Store API with the publishable key, orders through the Admin API
 * with a secret key. Finishing: store_charged (a payment session with the tenant's Medusa payment
 * provider, completed by Medusa), gateway_charged (Medusa's manual provider `pp_system_default`,
 * the payment then recorded captured through the Admin API) and handoff (the storefront's checkout
 * page for the cart, the reference in cart metadata). Medusa sends no webhooks of its own: order
 * changes are polled (`ordersChangedSince`), and pushed too when the merchant installed the
 * gateway's subscriber (`verifyWebhook`, webhooks.ts), the poll then only the safety net.
 */
import type {
  Adapter,
  AdapterCapabilities,
  BackendEvent,
  CheckoutPage,
  CheckoutUrlRequest,
  AuthenticatedCustomer,
  CustomerCredentials,
  LookupOptions,
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
} from '../contract.js';
import { BackendError } from '../contract.js';
import type { AdapterStore } from '../contract.js';
import { MedusaCarts } from './cart.js';
import { MedusaCatalog } from './catalog.js';
import { list, MedusaClient, MedusaRefusal, member } from './client.js';
import { MedusaOrders } from './orders.js';
import { paymentDataForm } from './payment-data.js';
import type { MedusaSettings } from './settings.js';
import { verifyMedusaPush } from './webhooks.js';

export { CREDENTIALS, MedusaSettings } from './settings.js';

export interface MedusaAdapterOptions {
  settings: MedusaSettings;
  publishableKey: string;
  secretKey: string;
  store: AdapterStore;
  tenantId: string;
  /** The push subscriber's signing secret; absent: every delivery is refused and the poll is the only source. */
  webhookSecret?: string;
  now?: () => number;
}

const trim = (url: string) => url.replace(/\/+$/, '');

export class MedusaAdapter implements Adapter {
  readonly kind = 'medusa';
  readonly capabilities: AdapterCapabilities;
  readonly storefrontUrl: string;
  /** With push delivery the poll only catches lost deliveries: every 5 minutes; without it, the gateway's default (60 s). */
  readonly orderPollSeconds?: number;
  private readonly checkoutTemplate: string;
  private readonly push: { secret?: string; now: () => number };

  private constructor(
    readonly client: MedusaClient,
    private readonly catalog: MedusaCatalog,
    private readonly carts: MedusaCarts,
    private readonly orders: MedusaOrders,
    settings: MedusaSettings,
    currency: string,
    push: { secret?: string; now: () => number },
  ) {
    this.push = push;
    if (push.secret) this.orderPollSeconds = 300;
    this.storefrontUrl = trim(settings.storefront_url);
    this.checkoutTemplate = settings.checkout_url ?? `${this.storefrontUrl}/checkout?cart_id={cart_id}`;
    this.capabilities = {
      lookupKeys: ['sku', 'handle'],
      customFilters: [],
      currencies: [currency],
      quotesShipping: true,
      quotesTax: true,
      pickup: false,
      locationStock: false,
      multiGroup: true,
      fulfillmentDiscovery: false,
      rejectionReasons: true,
      acceptedClaims: [],
      finishing: ['store_charged', 'gateway_charged', 'handoff'],
      // The reference in cart metadata, copied to the order; the cart id (the order-cart link) as the store reference.
      orderLinks: ['reference', 'store_reference'],
    };
  }

  /** Reads the region (and so the currency) carts are priced in; fails start-up when Medusa refuses the keys. */
  static async create(options: MedusaAdapterOptions): Promise<MedusaAdapter> {
    const { settings } = options;
    const timeoutMs = settings.request_timeout_ms ?? 10_000;
    const client = new MedusaClient(
      trim(settings.backend_url),
      { publishable: options.publishableKey, secret: options.secretKey },
      timeoutMs,
    );
    let regionId = settings.region_id;
    if (!regionId) {
      const answer = await client.call('admin', '/admin/stores', 'store read', { query: { fields: 'id,default_region_id' } });
      regionId = list<{ default_region_id?: string | null }>(answer, 'stores', 'store read')[0]?.default_region_id ?? undefined;
      if (!regionId) throw new BackendError('the Medusa store has no default region: set adapter.settings.region_id', false);
    }
    const answer = await client.call('store', `/store/regions/${encodeURIComponent(regionId)}`, 'region read');
    const currency = member<{ currency_code: string }>(answer, 'region', 'region read').currency_code.toUpperCase();
    const storefrontUrl = trim(settings.storefront_url);
    const carts = new MedusaCarts(client, { regionId, salesChannelId: settings.sales_channel_id, currency });
    const storeProvider = settings.payment_provider ?? 'pp_system_default';
    const checkoutTemplate = settings.checkout_url ?? `${storefrontUrl}/checkout?cart_id={cart_id}`;
    const orders = new MedusaOrders(client, carts, {
      checkoutPage: (cartId) => checkoutTemplate.replace('{cart_id}', encodeURIComponent(cartId)),
      providers: { store_charged: storeProvider, gateway_charged: 'pp_system_default' },
      paymentData: paymentDataForm(storeProvider, settings.payment_data),
      store: options.store,
      keyPrefix: `adapter:medusa:${options.tenantId}:`,
    });
    const push = { ...(options.webhookSecret && { secret: options.webhookSecret }), now: options.now ?? Date.now };
    const catalog = new MedusaCatalog(client, { regionId, currency, storefrontUrl }, options.secretKey);
    return new MedusaAdapter(client, catalog, carts, orders, settings, currency, push);
  }

  search(query: SearchQuery, signal?: AbortSignal): Promise<SearchPage> {
    return this.catalog.search(query, signal);
  }

  lookup(ids: string[], signal?: AbortSignal, _options?: LookupOptions): Promise<LookupResult[]> {
    return this.catalog.lookup(ids, signal);
  }

  async pickupLocations(): Promise<PickupLocation[]> {
    return [];
  }

  quote(request: QuoteRequest, signal?: AbortSignal): Promise<Quote> {
    return this.carts.quote(request, signal ? { signal } : {});
  }

  /** The storefront's checkout page for the session's Medusa cart, the reference kept in the cart's metadata. */
  async checkoutUrl(request: CheckoutUrlRequest, signal?: AbortSignal): Promise<CheckoutPage> {
    // Priced in this cart moments ago, the reference already on it: nothing to ask Medusa.
    const recent = request.handle && this.carts.recentQuote(request.handle, request.quote, request.reference);
    const quote = recent
      ? recent.quote
      : await this.carts.quote(
          { ...request.quote, ...(request.handle && { handle: request.handle }) },
          { metadata: { gateway_reference: request.reference }, ...(signal && { signal }) },
        );
    await this.orders.remember(request.reference, quote.handle!);
    const cartId = quote.handle!;
    return { url: this.checkoutTemplate.replace('{cart_id}', encodeURIComponent(cartId)), handle: cartId, storeReference: cartId };
  }

  placeOrder(request: PlaceOrderRequest, signal?: AbortSignal): Promise<PlaceOrderResult> {
    return this.orders.placeOrder(request, signal);
  }

  findOrderByReference(reference: string, signal?: AbortSignal, links?: OrderLinks): Promise<{ orderId: string } | null> {
    return this.orders.findOrderByReference(reference, signal, links);
  }

  getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    return this.orders.getOrder(orderId, signal);
  }

  ordersChangedSince(sinceIso: string, signal?: AbortSignal): Promise<OrderChange[]> {
    return this.orders.ordersChangedSince(sinceIso, signal);
  }

  /** A delivery of the merchant's push subscriber, signed with the tenant's `webhook_secret`. */
  verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): BackendEvent | null {
    return verifyMedusaPush(this.push.secret, headers, rawBody, this.push.now());
  }

  /**
   * Medusa's `emailpass` customer login: the password is checked by Medusa (`POST
   * /auth/customer/emailpass`), and the token it issues reads the customer's own record
   * (`GET /store/customers/me`). Null when Medusa refuses the pair or no customer has that login.
   */
  async authenticateCustomer(credentials: CustomerCredentials, signal?: AbortSignal): Promise<AuthenticatedCustomer | null> {
    let token: string;
    try {
      const answer = await this.client.call('auth', '/auth/customer/emailpass', 'customer login', {
        method: 'POST',
        body: credentials,
        signal,
      });
      if (typeof answer.token !== 'string') return null; // a login that needs another step (a redirect) is not a password login
      token = answer.token;
    } catch (error) {
      if (error instanceof MedusaRefusal) return null;
      throw error;
    }
    try {
      const answer = await this.client.call('store', '/store/customers/me', 'customer read', {
        headers: { authorization: `Bearer ${token}` },
        signal,
      });
      const customer = member<{ id: string; email: string }>(answer, 'customer', 'customer read');
      return { customerId: customer.id, email: customer.email };
    } catch (error) {
      if (error instanceof MedusaRefusal) return null;
      throw error;
    }
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.client.call('store', '/store/regions', 'ping', { query: { limit: 1, fields: 'id' }, signal });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export const createMedusaAdapter = (options: MedusaAdapterOptions) => MedusaAdapter.create(options);
