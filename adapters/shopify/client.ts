/**
 * Shopify calls: the Storefront API with the private token, the Admin API with a static token or
 * one from the client-credentials grant (refreshed a minute before it expires). @shopify/shopify-api
 * builds each endpoint (URL and headers); the calls themselves are sent and read as its GraphQL
 * client would, over the kit's HTTP client (graphql-http.ts). So is the grant (`requestToken`):
 * the library sends its grant through one fetch function for the whole process, while each client
 * here owns its transport (its kept-alive connections, its tenant's `api_origin`). Every call
 * carries the caller's deadline (AbortSignal) and is tried once: retries and backoff are the
 * gateway's (src/tenancy/resilient-adapter.ts), which this file feeds with retryable BackendErrors
 * and Retry-After hints, including Admin cost throttling, which Shopify answers with HTTP 200 and
 * `errors[].extensions.code = "THROTTLED"`.
 */
import '@shopify/shopify-api/adapters/node';
import { LogSeverity, Session, shopifyApi, type ApiVersion, type Shopify } from '@shopify/shopify-api';
import { BackendError } from '../contract.js';
import { deadline, HttpClient, type HttpAnswer } from '../kit/http-client.js';
import { deferredData, endpointOf, jsonData, post, statusError, type Endpoint } from './graphql-http.js';
import type { ShopifyConfig, ShopifyCredentials } from './settings.js';

const buyerHeader = (buyerIp: string | undefined) => (buyerIp ? { 'Shopify-Storefront-Buyer-IP': buyerIp } : undefined);

const GRANT_TIMEOUT_MS = 10_000;
const REFRESH_MARGIN_MS = 60_000;

/** An Admin token from a grant's answer; what else the answer is means for the gateway: retry (when) or give up. */
function grantedToken(answer: HttpAnswer): { accessToken: string; expiresInS?: number } {
  let body: unknown;
  try {
    body = JSON.parse(answer.text ?? '');
  } catch {
    body = undefined; // not JSON: no token, refused below
  }
  const { access_token, expires_in, error } = (body ?? {}) as { access_token?: unknown; expires_in?: unknown; error?: unknown };
  // An OAuth error answer (RFC 6749 §5.2, e.g. 400 invalid_client): the app's id or secret is wrong.
  if ((answer.status === 400 || answer.status === 401) && typeof error === 'string')
    throw new BackendError(`Shopify refused the client-credentials grant (${error}): check client_id and client_secret`, false);
  if (answer.status < 200 || answer.status >= 300) throw statusError('Admin', answer.status, answer.headers['retry-after']);
  if (typeof access_token !== 'string') throw new BackendError('Shopify refused the client-credentials grant', false);
  return { accessToken: access_token, ...(typeof expires_in === 'number' && { expiresInS: expires_in }) };
}

export class ShopifyClient {
  private readonly shopify: Shopify;
  private readonly storefrontEndpoint: Endpoint;
  private adminEndpoint?: { endpoint: Endpoint; expires?: number };
  private grant?: Promise<Endpoint>;
  private readonly http = new HttpClient({ timeoutMs: 30_000 });
  /** Where the shop's calls go: the tenant's `api_origin` (a simulator, an egress proxy), else the shop. */
  private readonly origin: string;

  constructor(
    private readonly settings: ShopifyConfig,
    private readonly credentials: ShopifyCredentials,
  ) {
    this.origin = settings.api_origin ?? `https://${settings.shop}`;
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
    return jsonData<T>('Storefront', await post(this.http, this.storefrontEndpoint, document, variables, signal, buyerHeader(buyerIp)));
  }

  /**
   * A Storefront query with `@defer`: Shopify answers multipart/mixed, the deferred fields in a
   * later part; the answer is read whole and the merged data returned.
   */
  async storefrontDeferred<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal, buyerIp?: string): Promise<T> {
    return deferredData<T>('Storefront', await post(this.http, this.storefrontEndpoint, document, variables, signal, buyerHeader(buyerIp)));
  }

  async admin<T>(document: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    const answer = await post(this.http, await this.admin_(), document, variables, signal);
    if (answer?.status === 401 && this.adminEndpoint?.expires) this.adminEndpoint = undefined;
    return jsonData<T>('Admin', answer);
  }

  /** The Admin endpoint, with a fresh token from the client-credentials grant when the app uses one. */
  private async admin_(): Promise<Endpoint> {
    const current = this.adminEndpoint;
    if (current && (current.expires === undefined || current.expires - REFRESH_MARGIN_MS > Date.now())) return current.endpoint;
    if (this.credentials.admin_token) {
      this.adminEndpoint = { endpoint: this.adminEndpointOf(this.credentials.admin_token) };
      return this.adminEndpoint.endpoint;
    }
    this.grant ??= this.requestToken().finally(() => {
      this.grant = undefined;
    });
    return this.grant;
  }

  /** The library's Admin GraphQL endpoint for a token, sent to the client's origin. */
  private adminEndpointOf(accessToken: string): Endpoint {
    const session = new Session({ id: 'admin', shop: this.settings.shop, state: '', isOnline: false, accessToken });
    return endpointOf(new this.shopify.clients.Graphql({ session }).client.config, this.settings.api_origin);
  }

  /**
   * Shopify's client-credentials grant, as the library sends it (a JSON body with the app's id and
   * secret to `/admin/oauth/access_token`), over this client's own transport
   * (https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/client-credentials-grant).
   */
  private async requestToken(): Promise<Endpoint> {
    const due = deadline(undefined, GRANT_TIMEOUT_MS);
    try {
      const answer = await this.http.send('Shopify Admin API grant', {
        method: 'POST',
        url: `${this.origin}/admin/oauth/access_token`,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({
          client_id: this.credentials.client_id,
          client_secret: this.credentials.client_secret,
          grant_type: 'client_credentials',
        }),
        signal: due.signal,
      });
      const { accessToken, expiresInS } = grantedToken(answer);
      const endpoint = this.adminEndpointOf(accessToken);
      this.adminEndpoint = { endpoint, ...(expiresInS !== undefined && { expires: Date.now() + expiresInS * 1000 }) };
      return endpoint;
    } catch (error) {
      if (due.signal.aborted) throw new BackendError('Shopify did not answer the client-credentials grant in time', true);
      throw error;
    } finally {
      due.clear();
    }
  }

  /** Closes the kept-alive connections. */
  async close(): Promise<void> {
    await this.http.close();
  }
}
