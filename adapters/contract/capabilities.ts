/** What an adapter declares it can do, and how its checkouts finish; the gateway adapts the protocol surface to it. */

/**
 * How a checkout is finished (declared by the adapter, chosen per tenant in `adapter.finishing`):
 * - `gateway_charged`: a gateway payment handler captures, then `placeOrder` records the order paid;
 * - `store_charged`: `placeOrder` passes the buyer's credential to the store, which charges it;
 * - `handoff`: no order through the API: complete answers `requires_escalation` with the store's
 *   checkout page (`checkoutUrl`); the order placed there is reconciled from a backend event or poll.
 */
export type FinishingMode = 'gateway_charged' | 'store_charged' | 'handoff';

export const FINISHING_MODES: readonly FinishingMode[] = ['gateway_charged', 'store_charged', 'handoff'];

/**
 * What this backend can do; the gateway adapts the protocol surface to it. Each optional
 * capability (a boolean or list that may be false or empty) has a documented fallback in
 * docs/adapter-contract.md; the gateway never invents what the store did not say.
 */
export interface AdapterCapabilities {
  /** Lookup keys supported beyond product and variant ids ([]: ids only; other ids are not_found). */
  lookupKeys: Array<'sku' | 'handle'>;
  /** Custom search filters the backend understands (beyond categories and price). */
  customFilters: CustomFilter[];
  /** Presentment currencies the store prices in; the first is the default. */
  currencies: string[];
  /** The store can quote shipping rates for an address. */
  quotesShipping: boolean;
  /** The store can compute tax for an address. */
  quotesTax: boolean;
  /** Pickup locations exist (`pickupLocations` lists them) and pickup can be quoted. */
  pickup: boolean;
  /** Stock is known per pickup location (`CatalogVariant.locationStock`); false: the variant's own stock counts everywhere. */
  locationStock: boolean;
  /** The store splits a shipment into several groups (e.g. by origin) when the platform supports it. */
  multiGroup: boolean;
  /** `discoverFulfillment` answers per variant and destination (catalog fulfillment discovery). */
  fulfillmentDiscovery: boolean;
  /**
   * The store says why a code was refused (`Quote.discounts.rejected[].reason`). False: every
   * refused code is reported as `discount_code_invalid`, never with an invented reason.
   */
  rejectionReasons: boolean;
  /** Eligibility claims (context.eligibility) the store prices for, e.g. "com.example.student". */
  acceptedClaims: string[];
  /** The finishing modes this adapter supports, preferred first (at least one). */
  finishing: FinishingMode[];
  /**
   * How the store ties an order to the checkout it came from (default `['reference']`):
   * `reference`: it keeps the gateway's reference with the order (`OrderSnapshot.reference`,
   * found by `findOrderByReference`); `store_reference`: it names the store-side object the order
   * will come from (cart, basket, payment id) at placement and handoff (`storeReference`) and
   * reports it with the order. A store with neither could never have a handed-off or challenged
   * order matched: the gateway refuses it at start-up.
   */
  orderLinks?: OrderLink[];
}

export type OrderLink = 'reference' | 'store_reference';

export const ORDER_LINKS: readonly OrderLink[] = ['reference', 'store_reference'];

export interface CustomFilter {
  name: string;
  description: string;
  /** JSON Schema of the filter's value. */
  schema: Record<string, unknown>;
}
