/**
 * The checkout session (spec part 1 §2.5, §2.9, §3, §4.3): create, update and complete payloads
 * and the response, with the discount and fulfillment extensions composed in. Update replaces the
 * whole session: what is not resent is dropped. Unknown request members are tolerated (ignored).
 */
import { Type, type Static } from '@sinclair/typebox';
import {
  Attribution,
  Buyer,
  Context,
  CurrencyCode,
  HandoffFailure,
  Link,
  Message,
  ResponseEnvelope,
  Signals,
  StringEnum,
  Total,
} from './common.js';
import { DiscountMembers } from './discount.js';
import { FulfillmentMembers } from './fulfillment.js';
import { LineItem, LineItemRequest, MAX_LINE_ITEMS } from './line-item.js';
import { Payment, PaymentRequest } from './payment.js';

const CHECKOUT_STATUSES = [
  'incomplete',
  'requires_escalation',
  'ready_for_complete',
  'complete_in_progress',
  'completed',
  'canceled',
] as const;
export const CheckoutStatus = StringEnum(CHECKOUT_STATUSES);
export type CheckoutStatus = Static<typeof CheckoutStatus>;

const requestMembers = {
  context: Type.Optional(Context),
  signals: Type.Optional(Signals),
  attribution: Type.Optional(Attribution),
  /** Every field optional: built up over updates (resend what to keep). */
  buyer: Type.Optional(Buyer),
  ...DiscountMembers.request,
  ...FulfillmentMembers.request,
  /** Instruments to show (display fields); credentials are only read by complete. */
  payment: Type.Optional(PaymentRequest),
};

export const CheckoutCreateRequest = Type.Object(
  {
    /** At least one line, unless `cart_id` gives them (then ignored, `[]` as upstream shows it). */
    line_items: Type.Optional(Type.Array(LineItemRequest, { maxItems: MAX_LINE_ITEMS })),
    /** A cart of this caller: its line items, context and buyer replace those of the payload. */
    cart_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...requestMembers,
  },
  {
    anyOf: [{ required: ['line_items'], properties: { line_items: { minItems: 1 } } }, { required: ['cart_id'] }],
    description: 'a checkout with line_items or a cart_id',
  },
);
export type CheckoutCreateRequest = Static<typeof CheckoutCreateRequest>;

export const CheckoutUpdateRequest = Type.Object({
  line_items: Type.Array(LineItemRequest, { maxItems: MAX_LINE_ITEMS }),
  ...requestMembers,
});
export type CheckoutUpdateRequest = Static<typeof CheckoutUpdateRequest>;

export const CheckoutCompleteRequest = Type.Object({
  /** The instrument to charge, with its credential. */
  payment: Type.Optional(PaymentRequest),
  /** Platform-observed risk signals, e.g. `dev.proto.buyer_ip`, `dev.proto.user_agent`. */
  signals: Type.Optional(Signals),
});
export type CheckoutCompleteRequest = Static<typeof CheckoutCompleteRequest>;

const OrderReference = Type.Object({ id: Type.String(), permalink_url: Type.String({ format: 'uri' }) });
type OrderReference = Static<typeof OrderReference>;

export const Checkout = Type.Object({
  proto: ResponseEnvelope,
  id: Type.String(),
  status: CheckoutStatus,
  line_items: Type.Array(LineItem),
  context: Type.Optional(Context),
  signals: Type.Optional(Signals),
  attribution: Type.Optional(Attribution),
  buyer: Type.Optional(Buyer),
  currency: CurrencyCode,
  totals: Type.Array(Total, { minItems: 1 }),
  ...DiscountMembers.response,
  ...FulfillmentMembers.response,
  payment: Payment,
  messages: Type.Optional(Type.Array(Message)),
  links: Type.Optional(Type.Array(Link)),
  continue_url: Type.Optional(Type.String({ format: 'uri' })),
  /** Once completed. */
  order: Type.Optional(OrderReference),
  expires_at: Type.String({ format: 'date-time' }),
});
export type Checkout = Static<typeof Checkout>;

/** A checkout operation that failed without a session to show: messages and a handoff URL. */
export const CheckoutFailure = HandoffFailure;
export type CheckoutFailure = HandoffFailure;

/** Every body a checkout operation answers with (HTTP 200/201, JSON-RPC result). */
export const CheckoutResponse = Type.Union([Checkout, CheckoutFailure]);
export type CheckoutResponse = Static<typeof CheckoutResponse>;
