/** Orders on the store: placing one once per checkout, and the snapshot the gateway reads back. */
import type { BuyerContact } from './buyer.js';
import type { FulfillmentMethodType } from './catalog.js';
import type { QuoteRequest } from './quote.js';
import type { PostalAddress } from './shared.js';

export interface PaymentRecord {
  handlerId: string;
  /** Processor reference of the captured payment. */
  transactionId: string;
  amount: number;
  display?: { brand?: string; lastDigits?: string };
}

/** The buyer's credential as a payment handler issued it (store_charged: the store charges it). */
export interface PaymentCredential {
  type: string;
  token: string;
}

export type OrderPayment =
  /** Captured by a gateway payment handler: the store records the order as paid. */
  | { mode: 'gateway_charged'; record: PaymentRecord }
  /**
   * The store charges `credential` (amount: `expectedTotal`), e.g. WooCommerce Store API checkout
   * with `payment_data`, a REST store's `POST /orders` with a token. Never kept or logged.
   */
  | { mode: 'store_charged'; handlerId: string; credential: PaymentCredential; billingAddress?: PostalAddress };

export interface PlaceOrderRequest {
  /**
   * Stable per checkout (the gateway's checkout id): a retry with the same reference MUST NOT
   * create a second order, and the store keeps it with the order (`OrderSnapshot.reference`).
   */
  reference: string;
  /** The checkout's final quote request (with its `handle`), every fulfillment group with its selected option. */
  quote: QuoteRequest;
  /** The total the buyer agreed to; the adapter refuses when the store's price moved. */
  expectedTotal: number;
  buyer: BuyerContact & { email: string };
  billingAddress?: PostalAddress;
  /**
   * Eligibility claims verified at completion (`verifyEligibility`); `quote.eligibilityClaims`
   * holds no other, so the order carries no unverified provisional discount.
   */
  verifiedClaims?: string[];
  payment: OrderPayment;
}

export type PlaceOrderResult =
  /** Also the answer for a reference that was already placed (the same order). */
  | { status: 'placed'; orderId: string; permalinkUrl?: string }
  /** Backend accepted but has not confirmed yet; resolve later with `findOrderByReference`. */
  | { status: 'pending'; storeReference?: string }
  /**
   * store_charged: the store asks the buyer to act before it charges (3-D Secure, a bank
   * redirect, a wallet approval) at `continueUrl`, its own page for this payment. Nothing is
   * charged yet; the order comes when the buyer approves there, reported like a handed-off
   * checkout's (webhook or poll, with the reference or `storeReference`). A later `placeOrder`
   * with the same reference (another instrument, the buyer having failed or abandoned the
   * challenge) replaces the waiting attempt: the store still places at most one order per reference.
   */
  | { status: 'requires_action'; continueUrl: string; detail?: string; storeReference?: string }
  | {
      status: 'rejected';
      /**
       * price_changed: the store's total is not `expectedTotal` (see `actualTotal`);
       * out_of_stock: a line can no longer be sold; incomplete: a line or fulfillment group the
       * store cannot place (unknown item, no option selected); payment_declined: (store_charged)
       * the store refused the credential, nothing was charged.
       */
      reason: 'price_changed' | 'out_of_stock' | 'incomplete' | 'payment_declined';
      detail: string;
      actualTotal?: number;
    };

/**
 * What the gateway knows that ties a checkout to the order the store makes of it, besides its
 * reference: for stores that keep their own ids rather than the gateway's (`capabilities.orderLinks`).
 */
export interface OrderLinks {
  /** The store-side object the order will come from, as the adapter named it at placement or handoff. */
  storeReference?: string;
  /** The session's store cart (`Quote.handle`) the order was placed from. */
  handle?: string;
}

export interface OrderLine {
  /**
   * The line's id: the checkout's line id, or the store's own line id (a store that does not
   * keep the gateway's ids). Expectations, events and adjustments refer to lines by this id.
   */
  id: string;
  /**
   * The checkout's line id when the store kept it (a line item property, order meta) and `id`
   * is the store's own; the gateway then shows this id, so a protocol line id is the same in the
   * checkout and in every snapshot of the order.
   */
  checkoutLineId?: string;
  variantId: string;
  productId: string;
  title: string;
  sku?: string;
  unitPrice: number;
  imageUrl?: string;
  /** original: at checkout; current: after edits, cancellations and returns; fulfilled: handed over. */
  quantity: { original: number; current: number; fulfilled: number };
  /** unitPrice * original quantity. */
  subtotal: number;
  /** Discount allocated to this line at checkout. */
  discount: number;
}

/** The buyer-facing delivery promise for some lines. */
export interface FulfillmentExpectation {
  id: string;
  lines: Array<{ id: string; quantity: number }>;
  method: FulfillmentMethodType | 'digital';
  /** Shipping address or pickup location address; absent for digital delivery. */
  destination?: PostalAddress;
  description?: string;
  /** `now` or a date for preorders; null when unknown (backorder). */
  fulfillableOn?: string | null;
}

/** Append-only log of what actually happened to the goods. */
export interface FulfillmentEvent {
  id: string;
  occurredAt: string;
  /** Open: processing, shipped, in_transit, delivered, canceled, ... */
  type: string;
  lines: Array<{ id: string; quantity: number }>;
  trackingNumber?: string;
  trackingUrl?: string;
  carrier?: string;
  description?: string;
}

/** Post-order money or quantity change (refund, return, cancellation); append-only. */
export interface OrderAdjustment {
  id: string;
  /** Open: refund, return, cancellation, ... */
  type: string;
  occurredAt: string;
  status: 'pending' | 'completed' | 'failed';
  /** Signed quantities: negative for items leaving the order. Absent for order-level adjustments. */
  lines?: Array<{ id: string; quantity: number }>;
  /** Signed minor units: negative for money returned to the buyer. */
  amount?: number;
  description?: string;
}

export interface OrderSnapshot {
  id: string;
  /** The `reference` it was placed with (the checkout), when the store keeps it. */
  reference?: string;
  /**
   * The store-side object it came from (a cart, basket or payment id), as the adapter named it
   * at placement or handoff (`storeReference`): how an order of a store that keeps no reference
   * is linked to its checkout.
   */
  storeReference?: string;
  currency: string;
  createdAt: string;
  permalinkUrl?: string;
  /** Every line that ever existed on the order. */
  lines: OrderLine[];
  expectations: FulfillmentExpectation[];
  events: FulfillmentEvent[];
  adjustments: OrderAdjustment[];
  /**
   * As charged at checkout (adjustments carry later changes). `tax` is the tax added to the
   * prices; `includedTax` the tax the prices already contain (a store whose prices include tax),
   * never added to `total` (absent: none).
   */
  totals: { subtotal: number; itemsDiscount: number; discount: number; shipping: number; tax: number; total: number; includedTax?: number };
  /** Optional: tax per jurisdiction as charged (the quote's `taxLines`); names the included tax for the buyer. */
  taxLines?: Array<{ title: string; amount: number; included?: boolean }>;
  canceled?: boolean;
  /** The store's customer the order belongs to, when it was placed by a signed-in customer. */
  customerId?: string;
  /** The email the order was placed with (a guest's typed email too): buyers are matched on it when no customer id is there. */
  buyerEmail?: string;
  /**
   * The store still waits for the buyer's payment (an order created unpaid and not paid since):
   * it does not complete a handed-off checkout; a later change that pays it does.
   */
  awaitingPayment?: boolean;
}
