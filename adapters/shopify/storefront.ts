/**
 * Storefront calls bound to one request: in the Shopify Market of its currency or country
 * (`@inContext(country)`), in the buyer's language else the tenant's (`@inContext(language)`),
 * with the buyer's IP (`Shopify-Storefront-Buyer-IP`), under the request's deadline. The catalog
 * reads and the carts make every Storefront call through one.
 */
import type { RequestContext } from '../contract.js';
import type { ShopifyClient } from './client.js';
import { shopifyLanguage } from './languages.js';
import type { ShopifyConfig } from './settings.js';

type Market = ShopifyConfig['markets'][number];
/** A Storefront call bound to one request's context (`@inContext` variables, buyer IP, deadline). */
type StorefrontCall = <T>(document: string, variables: Record<string, unknown>) => Promise<T>;
/** `deferred` for documents with `@defer` (answered multipart/mixed). */
export type Storefront = StorefrontCall & { deferred: StorefrontCall };

export class Storefronts {
  constructor(
    private readonly client: ShopifyClient,
    private readonly settings: Pick<ShopifyConfig, 'markets' | 'language'>,
  ) {}

  /** The Shopify Market of a currency (else of a country, else the default). */
  market(currency?: string, country?: string): Market {
    const { markets } = this.settings;
    return markets.find((m) => m.currency === currency) ?? markets.find((m) => m.country === country) ?? markets[0]!;
  }

  /** Storefront calls for one request: in its context, with the buyer's IP, under its deadline; `extra` variables on each. */
  calls(market: Market, request: RequestContext | undefined, signal: AbortSignal | undefined, extra: object = {}): Storefront {
    const context = { ...this.inContext(market, request), ...extra };
    const call = <T>(document: string, variables: Record<string, unknown>) =>
      this.client.storefront<T>(document, { ...variables, ...context }, signal, request?.clientIp);
    const deferred = <T>(document: string, variables: Record<string, unknown>) =>
      this.client.storefrontDeferred<T>(document, { ...variables, ...context }, signal, request?.clientIp);
    return Object.assign(call, { deferred });
  }

  /** `@inContext` of a request: the market's country, the buyer's language else the tenant's. */
  private inContext(market: Market, request: RequestContext | undefined) {
    const language = shopifyLanguage(request?.language) ?? this.settings.language;
    return { country: market.country, ...(language && { language }) };
  }
}
