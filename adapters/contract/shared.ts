/** What every domain of the adapter contract names: amounts, postal addresses, the request behind a call. */

/** Integer amount in minor units of `currency`. */
export interface Money {
  amount: number;
  currency: string;
}

/**
 * What the gateway saw of the request an adapter call serves (filled by the pipeline, never by
 * the caller's body), passed beside the call's own input (the last argument of `search`,
 * `quote`, `checkoutUrl`; `LookupOptions.context`), so it is never part of a query's or a cart's
 * identity (page tokens, fingerprints, caches). Stores that localize or guard per buyer use it;
 * an adapter that ignores it answers as for any buyer (the store's default language, no buyer
 * address forwarded). Absent when no request is behind the call (queued jobs, placeOrder).
 */
export interface RequestContext {
  /**
   * The buyer's client IP: the request's address, or the client named by trusted proxies
   * (`TRUST_PROXY`), never a proxy's. For stores that rate-limit or screen bots per buyer
   * (Shopify `Shopify-Storefront-Buyer-IP`). Personal data: adapters never log or keep it.
   */
  clientIp?: string;
  /** The buyer's language, a BCP 47 tag (`fr`, `pt-BR`): the first of `Accept-Language`. */
  language?: string;
}

export interface PostalAddress {
  firstName?: string;
  lastName?: string;
  streetAddress?: string;
  extendedAddress?: string;
  locality?: string;
  /** Subdivision code without the country prefix ("IL", "ON"). */
  region?: string;
  /** ISO 3166-1 alpha-2. The gateway normalizes alpha-3 and names before calling. */
  country?: string;
  postalCode?: string;
  phone?: string;
}
