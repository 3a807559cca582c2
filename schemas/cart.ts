/**
 * The cart (spec part 1 §2.5, §4.2): the create and update payloads and the response, with the
 * discount extension's `discounts` member composed in. Additional properties are allowed on
 * the cart object, so unknown request members are tolerated (and ignored).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Attribution, Buyer, Context, CurrencyCode, HandoffFailure, Link, Message, ResponseEnvelope, Signals, Total } from './common.js';
import { DiscountMembers } from './discount.js';
import { LineItem, LineItemRequest, MAX_LINE_ITEMS } from './line-item.js';

const requestMembers = {
  context: Type.Optional(Context),
  signals: Type.Optional(Signals),
  attribution: Type.Optional(Attribution),
  buyer: Type.Optional(Buyer),
  ...DiscountMembers.request,
};

export const CartCreateRequest = Type.Object({
  line_items: Type.Array(LineItemRequest, { minItems: 1, maxItems: MAX_LINE_ITEMS }),
  ...requestMembers,
});
export type CartCreateRequest = Static<typeof CartCreateRequest>;

/**
 * `line_items` replaces the cart's lines (`[]` empties it); an optional member that is absent
 * keeps its stored value, one that is present replaces it.
 */
export const CartUpdateRequest = Type.Object({
  line_items: Type.Array(LineItemRequest, { maxItems: MAX_LINE_ITEMS }),
  ...requestMembers,
});
export type CartUpdateRequest = Static<typeof CartUpdateRequest>;

export const Cart = Type.Object({
  proto: ResponseEnvelope,
  id: Type.String(),
  line_items: Type.Array(LineItem),
  context: Type.Optional(Context),
  signals: Type.Optional(Signals),
  attribution: Type.Optional(Attribution),
  buyer: Type.Optional(Buyer),
  currency: CurrencyCode,
  /** Estimated; partial (and saying so in `messages`) while shipping or tax is unknown. */
  totals: Type.Array(Total, { minItems: 1 }),
  messages: Type.Optional(Type.Array(Message)),
  links: Type.Optional(Type.Array(Link)),
  continue_url: Type.Optional(Type.String({ format: 'uri' })),
  expires_at: Type.Optional(Type.String({ format: 'date-time' })),
  ...DiscountMembers.response,
});
export type Cart = Static<typeof Cart>;

/** A cart operation that failed as a business outcome: no cart, messages and a handoff URL. */
export const CartFailure = HandoffFailure;
export type CartFailure = HandoffFailure;

/** Every body a cart operation answers with (HTTP 200/201, JSON-RPC result). */
export const CartResponse = Type.Union([Cart, CartFailure]);
export type CartResponse = Static<typeof CartResponse>;
