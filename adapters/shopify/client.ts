/**
 * Shopify calls through @shopify/shopify-api's GraphQL clients: the Storefront client with the
 * private token, the Admin client with a static token or one from the
 * client-credentials grant (refreshed a minute before it expires). Every call carries the
 * caller's deadline (AbortSignal) and is tried once: retries and backoff are the gateway's
 * (src/tenancy/resilient-adapter.ts), which this file feeds with retryable BackendErrors and
 * Retry-After hints, including Admin cost throttling, which Shopify answers with HTTP 200 and
 * `errors[].extensions.code = "THROTTLED"` and the library does not retry.
 */
import '@shopify/shopify-api/adapters/node';
import {
  GraphqlQueryError,
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
import { BackendError, InvalidBackendAnswer } from '../contract.js';
import { HttpClient } from '../kit/http-client.js';
import type { ShopifyConfig, ShopifyCredentials } from './settings.js';

/**
 * The library builds https://{shop} URLs itself. A tenant with `api_origin` (a simulator, an egress
 * proxy) has its shop's calls sent there instead; every other shop goes to Shopify. The library
 * takes one fetch function for the process, so the redirection is a table by shop origin, and
 * the calls share one pool of kept-alive connections (adapters/kit/http-client.ts), each under
 * the caller's deadline or, without one, the pool's.
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

interface GraphQLErrorBody {
  errors?: { graphQLErrors?: Array<{ message?: string; extensions?: { code?: string } }> };
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: { currentlyAvailable?: number; restoreRate?: number } } };
}

/** How long until the Admin bucket holds this call's cost again. */
function throttleWait(body: GraphQLErrorBody): number {
  const cost = body.extensions?.cost;
  const status = cost?.throttleStatus;
  if (!cost?.requestedQueryCost || !status?.restoreRate) return 1_000;
  const missing = cost.requestedQueryCost - (status.currentlyAvailable ?? 0);
  return Math.max(100, Math.ceil((missing / status.restoreRate) * 1_000));
}

/** What Shopify's answer means for the gateway: retry (when and how soon) or give up. */
export function backendError(api: string, error: unknown): unknown {
  if (error instanceof BackendError) return error;
  if (error instanceof GraphqlQueryError) {
    const body = (error.body ?? {}) as GraphQLErrorBody;
    const errors = body.errors?.graphQLErrors ?? [];
    if (errors.some((e) => e.extensions?.code === 'THROTTLED'))
      return new BackendError(`Shopify ${api} API throttled the call (query cost)`, true, throttleWait(body));
    return new BackendError(`Shopify ${api} API refused the call: ${errors.map((e) => e.message).join('; ')}`, false);
  }
  if (error instanceof HttpThrottlingError) {
    const after = error.response.retryAfter;
    return new BackendError(`Shopify ${api} API is throttling (429)`, true, after !== undefined ? after * 1_000 : 1_000);
  }
  if (error instanceof HttpResponseError) {
    // instanceof leaves the response's type parameter `any`; it is the default HttpResponseData.
    const { code } = (error as HttpResponseError).response;
    if (code === 430) return new BackendError(`Shopify ${api} API rejected the call for now (430)`, true, 1_000);
    if (code >= 500) return new BackendError(`Shopify ${api} API failed (${code})`, true);
    if (code === 401 || code === 403) return new BackendError(`Shopify ${api} API refused the credentials (${code})`, false);
    if (code >= 200 && code < 300) return new InvalidBackendAnswer(`Shopify ${api} API`, 'body (not GraphQL JSON)');
    return new BackendError(`Shopify ${api} API answered ${code}`, false);
  }
  if (error instanceof HttpRequestError) return new BackendError(`Shopify ${api} API is unreachable`, true);
  return error;
}

const GRANT_TIMEOUT_MS = 10_000;
const REFRESH_MARGIN_MS = 60_000;

export class ShopifyClient {
  private readonly shopify: Shopify;
  private readonly storefrontClient: InstanceType<Shopify['clients']['Storefront']>;
  private adminClient?: { client: InstanceType<Shopify['clients']['Graphql']>; expires?: number };
  private grant?: Promise<InstanceType<Shopify['clients']['Graphql']>>;

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
    this.storefrontClient = new this.shopify.clients.Storefront({ session });
  }

  /**
   * A Storefront call with the private token. `buyerIp` (the buyer's client IP) goes in
   * `Shopify-Storefront-Buyer-IP`, so Shopify throttles and screens per buyer rather than per
   * gateway (https://shopify.dev/docs/api/usage/authentication, "private access tokens").
   */
  async storefront<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal, buyerIp?: string): Promise<T> {
    try {
      const response = await this.storefrontClient.request<T>(document, {
        variables,
        ...(buyerIp && { headers: { 'Shopify-Storefront-Buyer-IP': buyerIp } }),
        ...(signal && { signal }),
      });
      return response.data as T;
    } catch (error) {
      throw backendError('Storefront', error);
    }
  }

  /**
   * A Storefront query with `@defer`: Shopify answers multipart/mixed, the deferred fields in a
   * later part; the library's stream is read to its end and the merged data returned.
   */
  async storefrontDeferred<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal, buyerIp?: string): Promise<T> {
    let last: { data?: unknown; errors?: { message?: string; networkStatusCode?: number; graphQLErrors?: Array<{ message?: string }> } };
    try {
      const stream = await this.storefrontClient.client.requestStream(document, {
        variables,
        ...(buyerIp && { headers: { 'Shopify-Storefront-Buyer-IP': buyerIp } }),
        ...(signal && { signal }),
      });
      last = {};
      for await (const part of stream) last = part as typeof last;
    } catch (error) {
      throw backendError('Storefront', error);
    }
    const { errors } = last;
    if (errors?.graphQLErrors?.length)
      throw new BackendError(`Shopify Storefront API refused the call: ${errors.graphQLErrors.map((e) => e.message).join('; ')}`, false);
    const status = errors?.networkStatusCode ?? 0;
    if (errors)
      throw new BackendError(
        `Shopify Storefront API failed${status ? ` (${status})` : ''}`,
        status === 0 || status >= 500 || status === 429,
      );
    return last.data as T;
  }

  async admin<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    try {
      const client = await this.admin_();
      const response = await client.request<T>(document, { variables, ...(signal && { signal }) });
      return response.data as T;
    } catch (error) {
      if (error instanceof HttpResponseError && (error as HttpResponseError).response.code === 401 && this.adminClient?.expires)
        this.adminClient = undefined;
      throw backendError('Admin', error);
    }
  }

  /** The Admin client, with a fresh token from the client-credentials grant when the app uses one. */
  private async admin_(): Promise<InstanceType<Shopify['clients']['Graphql']>> {
    const current = this.adminClient;
    if (current && (current.expires === undefined || current.expires - REFRESH_MARGIN_MS > Date.now())) return current.client;
    if (this.credentials.admin_token) {
      const session = new Session({
        id: 'admin',
        shop: this.settings.shop,
        state: '',
        isOnline: false,
        accessToken: this.credentials.admin_token,
      });
      this.adminClient = { client: new this.shopify.clients.Graphql({ session }) };
      return this.adminClient.client;
    }
    this.grant ??= this.requestToken().finally(() => {
      this.grant = undefined;
    });
    return this.grant;
  }

  private async requestToken(): Promise<InstanceType<Shopify['clients']['Graphql']>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new BackendError('Shopify did not answer the client-credentials grant in time', true)),
        GRANT_TIMEOUT_MS,
      );
    });
    try {
      const { session } = await Promise.race([this.shopify.auth.clientCredentials({ shop: this.settings.shop }), timeout]);
      const client = new this.shopify.clients.Graphql({ session });
      this.adminClient = { client, ...(session.expires && { expires: session.expires.getTime() }) };
      return client;
    } catch (error) {
      const mapped = backendError('Admin', error);
      throw mapped instanceof BackendError ? mapped : new BackendError('Shopify refused the client-credentials grant', false);
    } finally {
      clearTimeout(timer);
    }
  }
}
