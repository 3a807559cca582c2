/** Pricing in the store's own cart: what the gateway asks to be priced, the quote the store answers, its checkout page. */
import type { BuyerContact, BuyerIdentity } from './buyer.js';
import type { FulfillmentMethodType } from './catalog.js';
import type { PostalAddress } from './shared.js';

export interface QuoteLine {
  /** Gateway line id, echoed back. */
  lineId: string;
  variantId: string;
  quantity: number;
}

type FulfillmentDestination = { address: PostalAddress } | { locationId: string };

/** One fulfillment method of a checkout: which lines, where to, which option per group. */
export interface FulfillmentMethodRequest {
  /** Gateway method id, echoed back. */
  methodId: string;
  type: FulfillmentMethodType;
  /** Lines to fulfill this way; digital lines are ignored (they need no fulfillment). */
  lineIds: string[];
  /** The selected destination: an address for shipping, a pickup location for pickup. */
  destination?: FulfillmentDestination;
  /** Selected option per group, keyed by the group `key` of an earlier quote. */
  selectedOptions?: Record<string, string>;
}

export interface QuoteRequest {
  /**
   * The store's own cart for this session, as the adapter returned it with an earlier quote
   * (`Quote.handle`): update that cart instead of building a new one. Absent on the first call.
   * The request is always complete (lines, codes, buyer, fulfillment): the adapter brings the
   * store's cart to exactly this state. A handle the store no longer knows (expired cart) is
   * the adapter's to replace: build a new cart and return its handle.
   */
  handle?: string;
  /**
   * The gateway's id of the session being priced (its cart or checkout id), the `reference` a
   * later `checkoutUrl` will carry. A store that can keep it with a cart it creates (Shopify's
   * cart attributes in `cartCreate`) does so, and `checkoutUrl` then needs no call of its own.
   * Not part of what is priced: adapters that cannot keep it ignore it.
   */
  reference?: string;
  /** Presentment currency, one of the store's currencies; absent = the store default. */
  currency?: string;
  lines: QuoteLine[];
  buyer?: BuyerContact;
  identity?: BuyerIdentity;
  /** Buyer location hint (cart estimates, context); tax is estimated from it when nothing else says where. */
  location?: Pick<PostalAddress, 'country' | 'region' | 'postalCode'>;
  /** As submitted, in order; matching is case-insensitive. */
  discountCodes: string[];
  /** Claims from context.eligibility; the store prices the ones it accepts as provisional discounts. */
  eligibilityClaims?: string[];
  /** Absent on cart estimates: no fulfillment groups and no shipping are priced then. */
  fulfillment?: {
    methods: FulfillmentMethodRequest[];
    /** The platform accepts several groups per method (supports_multi_group). */
    multiGroup: boolean;
  };
}

/** Why a line cannot be bought as requested; `detail` is the store's own words, when it gave any. */
export type LineProblem = (
  | { lineId: string; code: 'not_found' }
  | { lineId: string; code: 'invalid_quantity' }
  | { lineId: string; code: 'out_of_stock' }
  | { lineId: string; code: 'discontinued' }
  /** Priced at the requested quantity; `available` is what can be sold (0 when an earlier line took it). */
  | { lineId: string; code: 'insufficient_stock'; available: number }
) & { detail?: string };

/**
 * Why a submitted code is not applied. The first six are the protocol's `discount_code_*` codes;
 * `not_applicable` (the code is valid but nothing in the cart qualifies: no eligible item, minimum
 * subtotal or quantity not reached) has no protocol code of its own.
 */
export type DiscountRejection =
  'expired' | 'invalid' | 'already_applied' | 'combination_disallowed' | 'user_not_logged_in' | 'user_ineligible' | 'not_applicable';

/** What one allocation of a discount reduces. */
export type AllocationTarget =
  | { kind: 'line'; lineId: string }
  /** The shipping of one fulfillment group. */
  | { kind: 'shipping'; methodId: string; groupKey: string }
  /** The order as a whole (backends that do not allocate). */
  | { kind: 'order' };

export interface AppliedDiscount {
  /** As the buyer submitted it; absent for automatic discounts. */
  code?: string;
  title: string;
  /** Positive magnitude; equals the sum of `allocations` exactly. */
  amount: number;
  automatic: boolean;
  /** `each`: computed per item independently; `across`: computed once and split by value. */
  method: 'each' | 'across';
  /** Position in the stacking order, 1 first; each discount applies to what earlier ones left. */
  priority: number;
  /** Priced from an eligibility claim that still needs verification. */
  provisional?: boolean;
  /** The accepted claim behind a provisional discount. */
  eligibility?: string;
  allocations: Array<{ target: AllocationTarget; amount: number }>;
}

export interface QuotedLine {
  lineId: string;
  variantId: string;
  productId: string;
  /** Product title. */
  title: string;
  /** Variant title when the product has options. */
  variantTitle?: string;
  sku?: string;
  unitPrice: number;
  quantity: number;
  imageUrl?: string;
  requiresShipping: boolean;
  /** `now`, a release date (YYYY-MM-DD) for preorders, or null when unknown (backorder). */
  fulfillableOn: string | null;
  /** unitPrice * quantity, before discounts. */
  subtotal: number;
}

export interface FulfillmentOptionQuote {
  /** The store's option id (rate handle, location option); stable across quotes. */
  id: string;
  /** Distinguishes the option from its siblings. */
  title: string;
  /** Extra detail; never repeats the title or the price. */
  description?: string;
  carrier?: string;
  /** RFC 3339 window of delivery or readiness. */
  earliest?: string;
  latest?: string;
  /** Price before any shipping discount (those are allocations of applied discounts). */
  amount: number;
}

export interface FulfillmentGroupQuote {
  /**
   * Stable identity chosen by the store (e.g. the origin the parcel leaves from): the same key
   * for the same split across quotes, so the gateway can derive a stable group id from it.
   */
  key: string;
  lineIds: string[];
  /** Cheapest first. Empty when there is no destination yet or nothing can reach it. */
  options: FulfillmentOptionQuote[];
  /** Why `options` is empty although a destination is set (a sentence for the buyer). */
  unavailableReason?: string;
  /** Echoed when the requested option is one of `options`. */
  selectedOptionId?: string;
}

export interface FulfillmentMethodQuote {
  methodId: string;
  type: FulfillmentMethodType;
  /** The method's physical, priced lines. */
  lineIds: string[];
  /** One group unless `multiGroup` was requested and the store ships separately. */
  groups: FulfillmentGroupQuote[];
  /**
   * The store refused the destination's address (nothing is quoted for it): each refused field
   * (absent: the address as a whole) with the store's words, reported on the destination.
   */
  destinationProblems?: Array<{ field?: keyof PostalAddress; detail: string }>;
}

/** A method the lines could use, for `available_methods`. */
export interface AvailableMethod {
  type: FulfillmentMethodType;
  lineIds: string[];
  /** `now`, a date (YYYY-MM-DD), or null when unknown. */
  fulfillableOn: string | null;
  /** Standalone sentence. */
  description: string;
}

export interface Quote {
  /**
   * Opaque reference to the store's cart, draft order or session that holds this quote (a
   * Shopify cart id, a WooCommerce Cart-Token, a draft order id): JSON-serializable text of a
   * few KB at most. The gateway keeps it with the cart or checkout session (in the state store,
   * so every replica sees it) and sends it back in every later request of that session.
   * Absent: the store keeps nothing (the next quote starts from nothing, as the demo store does).
   */
  handle?: string;
  currency: string;
  /** Lines that can be priced (not those with not_found, invalid_quantity, out_of_stock, discontinued). */
  lines: QuotedLine[];
  lineProblems: LineProblem[];
  discounts: {
    /** Every active discount in stacking order, codes and automatic ones. */
    applied: AppliedDiscount[];
    /**
     * `index` is the position of the code in the submitted `discountCodes`. `reason` only when the
     * store said why (`capabilities.rejectionReasons`); absent: the gateway says `discount_code_invalid`.
     */
    rejected: Array<{ code: string; index: number; reason?: DiscountRejection; detail?: string }>;
  };
  /** Present when fulfillment was requested. */
  fulfillment?: FulfillmentMethodQuote[];
  /** Methods the priced physical lines could use (empty when every line is digital). */
  availableMethods: AvailableMethod[];
  /**
   * Tax per jurisdiction; empty when tax is null. `included`: tax the prices already contain (a
   * store whose prices include tax), counted in `totals.includedTax`, not in `totals.tax`.
   */
  taxLines: Array<{ title: string; amount: number; included?: boolean }>;
  totals: {
    /** Sum of line subtotals. */
    subtotal: number;
    /** Sum of discount allocations to lines. */
    itemsDiscount: number;
    /** Sum of discount allocations to shipping and to the order. */
    discount: number;
    /**
     * Sum of the selected options' amounts (groups without a selection add nothing yet); null
     * while no group has one; 0 when nothing ships.
     */
    shipping: number | null;
    /**
     * Tax added to the prices; null when tax cannot be computed yet (no destination or location
     * for some line). A store whose prices include tax adds none: 0, and says what the prices
     * contain in `includedTax`.
     */
    tax: number | null;
    /**
     * Tax the prices (lines and shipping) already contain, for a store whose prices include tax:
     * shown to the buyer, never added to `total`. Absent when the prices exclude tax or tax is
     * not known yet (`tax` null).
     */
    includedTax?: number;
    /** subtotal - itemsDiscount - discount + (shipping ?? 0) + (tax ?? 0). */
    total: number;
  };
}

/** What `checkoutUrl` needs: the session's reference, its store cart, and what it holds. */
export interface CheckoutUrlRequest {
  /**
   * The gateway's id of the session (a checkout id, or a cart id for a cart's page). The store
   * keeps it with the order placed there (Shopify cart attribute, WooCommerce order meta, a REST
   * store's field), so the order is matched to the session later.
   */
  reference: string;
  /** The session's store cart (`Quote.handle`), when it has one. */
  handle?: string;
  /** What the session holds, as last priced (to build the store cart when there is no handle). */
  quote: QuoteRequest;
}

/** The store's checkout page for a session (`checkoutUrl`). */
export interface CheckoutPage {
  url: string;
  /** A new store cart the store made for the page (to keep as the session's handle). */
  handle?: string;
  /**
   * The store-side object an order placed on the page will come from (the cart or basket id),
   * for a store that does not keep the gateway's reference (`capabilities.orderLinks`); the
   * order it reports carries it (`OrderSnapshot.storeReference`).
   */
  storeReference?: string;
}
