/**
 * What a store says about its own setup, for operators (`npm run tenant -- check`), never on a
 * request's path and never a write. Optional as a whole (`Adapter.setup`) and per read: an adapter
 * offers what its platform can tell, and the check says "skipped" for the rest.
 */

/** The platform's API version the adapter works against, as the store reports it. */
export interface ApiVersionStatus {
  /** The version in the platform's own terms: Shopify's `2026-10`, WooCommerce's release `10.2.0`. */
  version: string;
  /** The store serves it and the adapter works with it. */
  supported: boolean;
  /** One sentence: why not, or what else the operator should know (the version the adapter is tested with). */
  detail: string;
}

/** One webhook the store holds. */
interface WebhookRegistration {
  /** The topic in the platform's own terms (`ORDERS_CREATE`, `order.created`). */
  topic: string;
  /** Where the store delivers it. */
  url: string;
  /** False: kept but not delivering (WooCommerce pauses or disables a webhook after failed deliveries). */
  active: boolean;
}

export interface WebhookSetup {
  /** The topics the gateway needs delivered (what the platform's register command subscribes). */
  needed: readonly string[];
  /** Every webhook the store holds, whatever its URL. */
  registered: WebhookRegistration[];
}

export interface StoreSetup {
  apiVersion?(signal?: AbortSignal): Promise<ApiVersionStatus>;
  webhooks?(signal?: AbortSignal): Promise<WebhookSetup>;
}
