/**
 * Shopify calls: the Storefront API with the private token, the Admin API with a static token or
 * one from the client-credentials grant (refreshed a minute before it expires). @shopify/shopify-api
 * builds each endpoint (URL and headers) and does the grant; the calls themselves are sent and read
 * as its GraphQL client would, over the kit's HTTP client (graphql-http.ts). Every call carries the
 * caller's deadline (AbortSignal) and is tried once: retries and backoff are the gateway's
 * (src/tenancy/resilient-adapter.ts), which this file feeds with retryable BackendErrors and
 * Retry-After hints, including Admin cost throttling, which Shopify answers with HTTP 200 and
 * `errors[].extensions.code = "THROTTLED"`.
 */
import '@shopify/shopify-api/adapters/node';
import {
  HttpRequestError,
  HttpResponseError,
  HttpThrottlingError,
  LogSeverity,
  Session,
  shopifyApi,
  type ApiVersion,
  type Shopify,
} from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { BackendError } from '../contract.js';
import { HttpClient } from '../kit/http-client.js';
import { deferredData, endpointOf, jsonData, post, statusError, type Endpoint } from './graphql-http.js';
import type { ShopifyConfig, ShopifyCredentials } from './settings.js';

/**
 * The library builds https://{shop} URLs itself. A tenant with `api_origin` (a simulator, an egress
 * proxy) has its shop's calls sent there instead; every other shop goes to Shopify. The library
 * takes one fetch function for the process (for the grant), so the redirection is a table by shop
 * origin, and all calls share one pool of kept-alive connections (adapters/kit/http-client.ts),
 * each under the caller's deadline or, without one, the pool's.
 */
const redirected = new Map<string, string>();
const http = new HttpClient({ timeoutMs: 30_000 });
let routerInstalled = false;

function redirect(shop: string, origin: string | undefined): void {
  if (!routerInstalled) {
    routerInstalled = true;
    setAbstractFetchFunc((input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const target = redirected.get(url.origin);
      return http.fetch(target ? `${target}${url.pathname}${url.search}` : url, init);
    });
  }
  if (origin) redirected.set(`https://${shop}`, origin);
  else redirected.delete(`https://${shop}`);
}

/** What a failed client-credentials grant means for the gateway: retry (when and how soon) or give up. */
function grantError(error: unknown): BackendError {
  if (error instanceof BackendError) return error;
  if (error instanceof HttpThrottlingError) return statusError('Admin', 429, error.response.retryAfter?.toString());
  // instanceof leaves the response's type parameter `any`; it is the default HttpResponseData.
  if (error instanceof HttpResponseError) return statusError('Admin', (error as HttpResponseError).response.code);
  if (error instanceof HttpRequestError) return new BackendError('Shopify Admin API is unreachable', true);
  return new BackendError('Shopify refused the client-credentials grant', false);
}

const buyerHeader = (buyerIp: string | undefined) => (buyerIp ? { 'Shopify-Storefront-Buyer-IP': buyerIp } : undefined);

const GRANT_TIMEOUT_MS = 10_000;
const REFRESH_MARGIN_MS = 60_000;

export class ShopifyClient {
  private readonly shopify: Shopify;
  private readonly storefrontEndpoint: Endpoint;
  private adminEndpoint?: { endpoint: Endpoint; expires?: number };
  private grant?: Promise<Endpoint>;

  constructor(
    private readonly settings: ShopifyConfig,
    private readonly credentials: ShopifyCredentials,
  ) {
    redirect(settings.shop, settings.api_origin);
    this.shopify = shopifyApi({
      apiKey: credentials.client_id ?? 'custom-app',
      apiSecretKey: credentials.client_secret ?? credentials.webhook_secret!,
      hostName: 'gateway.invalid',
      apiVersion: settings.api_version as ApiVersion,
      isEmbeddedApp: false,
      // The library's own log lines could carry request details: the gateway logs what matters.
      logger: { level: LogSeverity.Error, log: async () => undefined },
    });
    const session = new Session({
      id: 'storefront',
      shop: settings.shop,
      state: '',
      isOnline: false,
      accessToken: credentials.storefront_token,
    });
    this.storefrontEndpoint = endpointOf(new this.shopify.clients.Storefront({ session }).client.config, settings.api_origin);
  }

  /**
   * A Storefront call with the private token. `buyerIp` (the buyer's client IP) goes in
   * `Shopify-Storefront-Buyer-IP`, so Shopify throttles and screens per buyer rather than per
   * gateway (https://shopify.dev/docs/api/usage/authentication, "private access tokens").
   */
  async storefront<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal, buyerIp?: string): Promise<T> {
    return jsonData<T>('Storefront', await post(http, this.storefrontEndpoint, document, variables, signal, buyerHeader(buyerIp)));
  }

  /**
   * A Storefront query with `@defer`: Shopify answers multipart/mixed, the deferred fields in a
   * later part; the answer is read whole and the merged data returned.
   */
  async storefrontDeferred<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal, buyerIp?: string): Promise<T> {
    return deferredData<T>('Storefront', await post(http, this.storefrontEndpoint, document, variables, signal, buyerHeader(buyerIp)));
  }

  async admin<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    const answer = await post(http, await this.admin_(), document, variables, signal);
    if (answer?.status === 401 && this.adminEndpoint?.expires) this.adminEndpoint = undefined;
    return jsonData<T>('Admin', answer);
  }

  /** The Admin endpoint, with a fresh token from the client-credentials grant when the app uses one. */
  private async admin_(): Promise<Endpoint> {
    const current = this.adminEndpoint;
    if (current && (current.expires === undefined || current.expires - REFRESH_MARGIN_MS > Date.now())) return current.endpoint;
    if (this.credentials.admin_token) {
      const session = new Session({
        id: 'admin',
        shop: this.settings.shop,
        state: '',
        isOnline: false,
        accessToken: this.credentials.admin_token,
      });
      this.adminEndpoint = { endpoint: this.endpointOf(session) };
      return this.adminEndpoint.endpoint;
    }
    this.grant ??= this.requestToken().finally(() => {
      this.grant = undefined;
    });
    return this.grant;
  }

  private endpointOf(session: Session): Endpoint {
    return endpointOf(new this.shopify.clients.Graphql({ session }).client.config, this.settings.api_origin);
  }

  private async requestToken(): Promise<Endpoint> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new BackendError('Shopify did not answer the client-credentials grant in time', true)),
        GRANT_TIMEOUT_MS,
      );
    });
    try {
      const { session } = await Promise.race([this.shopify.auth.clientCredentials({ shop: this.settings.shop }), timeout]);
      const endpoint = this.endpointOf(session);
      this.adminEndpoint = { endpoint, ...(session.expires && { expires: session.expires.getTime() }) };
      return endpoint;
    } catch (error) {
      throw grantError(error);
    } finally {
      clearTimeout(timer);
    }
  }
}
