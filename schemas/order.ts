/**
 * The order (spec part 2 §2.1-2.5): the current-state snapshot that get_order answers with and
 * every order webhook carries. Line status is derived (§3); fulfillment events and adjustments
 * are append-only logs. Quantities and amounts of adjustments are signed.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CurrencyCode, Message, ResponseEnvelope, StringEnum, Total } from './common.js';
import { PostalAddress } from './fulfillment.js';
import { Item } from './line-item.js';

const Count = Type.Integer({ minimum: 0 });

/** Items and quantities an expectation, event or adjustment is about. */
const LineQuantity = Type.Object({ id: Type.String(), quantity: Type.Integer() });
type LineQuantity = Static<typeof LineQuantity>;

const LINE_STATUSES = ['processing', 'partial', 'fulfilled', 'removed'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

export const OrderLineQuantity = Type.Object({
  /** At checkout. */
  original: Count,
  /** Now, after edits, cancellations and returns. */
  total: Count,
  fulfilled: Count,
});
export type OrderLineQuantity = Static<typeof OrderLineQuantity>;

export const OrderLineItem = Type.Object({
  id: Type.String(),
  item: Item,
  quantity: OrderLineQuantity,
  totals: Type.Array(Total),
  status: StringEnum(LINE_STATUSES),
  parent_id: Type.Optional(Type.String()),
});
export type OrderLineItem = Static<typeof OrderLineItem>;

export const Expectation = Type.Object({
  id: Type.String(),
  line_items: Type.Array(LineQuantity),
  /** Well-known shipping, pickup, digital; others allowed. */
  method_type: Type.String(),
  destination: PostalAddress,
  description: Type.Optional(Type.String()),
  /** `now` or an ISO 8601 date or timestamp. */
  fulfillable_on: Type.Optional(Type.String()),
});
export type Expectation = Static<typeof Expectation>;

const TRACKING = { tracking_number: Type.String({ minLength: 1 }), tracking_url: Type.String({ format: 'uri' }) };

/**
 * Tracking is required for every event type but `processing` (§2.4). The `then` branch defines the
 * members it requires, so schema tools (OpenAPI linters, generators) see them defined there too.
 */
export const FulfillmentEvent = Type.Object(
  {
    id: Type.String(),
    occurred_at: Type.String({ format: 'date-time' }),
    type: Type.String(),
    line_items: Type.Array(LineQuantity),
    tracking_number: Type.Optional(TRACKING.tracking_number),
    tracking_url: Type.Optional(TRACKING.tracking_url),
    carrier: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
  },
  {
    if: { properties: { type: { not: { const: 'processing' } } } },
    then: { properties: TRACKING, required: ['tracking_number', 'tracking_url'] },
  },
);
export type FulfillmentEvent = Static<typeof FulfillmentEvent>;

export const Adjustment = Type.Object({
  id: Type.String(),
  type: Type.String(),
  occurred_at: Type.String({ format: 'date-time' }),
  status: StringEnum(['pending', 'completed', 'failed']),
  /** Signed: negative for items leaving the order. Absent for order-level adjustments. */
  line_items: Type.Optional(Type.Array(LineQuantity)),
  /** Signed: negative for money returned to the buyer. */
  totals: Type.Optional(Type.Array(Total)),
  description: Type.Optional(Type.String()),
});
export type Adjustment = Static<typeof Adjustment>;

const orderMembers = {
  id: Type.String(),
  label: Type.Optional(Type.String()),
  checkout_id: Type.String(),
  permalink_url: Type.String({ format: 'uri' }),
  line_items: Type.Array(OrderLineItem),
  fulfillment: Type.Object({ expectations: Type.Array(Expectation), events: Type.Array(FulfillmentEvent) }),
  adjustments: Type.Optional(Type.Array(Adjustment)),
  currency: CurrencyCode,
  totals: Type.Array(Total, { minItems: 1 }),
  messages: Type.Optional(Type.Array(Message)),
};

/** The order without its envelope: what the capability renders. */
export const OrderBody = Type.Object(orderMembers);
export type OrderBody = Static<typeof OrderBody>;

export const Order = Type.Object({ proto: ResponseEnvelope, ...orderMembers });
export type Order = Static<typeof Order>;

/** get_order's failed outcome (not_found, unauthorized). */
export const OrderFailure = Type.Object({
  proto: ResponseEnvelope,
  messages: Type.Array(Message, { minItems: 1 }),
});
export type OrderFailure = Static<typeof OrderFailure>;

/** The body of an order webhook (§4.2, §6.1): the full order plus the event's id and time. */
export const OrderEventBody = Type.Object({
  proto: ResponseEnvelope,
  ...orderMembers,
  event_id: Type.String({ minLength: 1 }),
  created_time: Type.String({ format: 'date-time' }),
});
export type OrderEventBody = Static<typeof OrderEventBody>;
