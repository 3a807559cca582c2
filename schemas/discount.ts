/**
 * The discount extension's `discounts` member on cart and checkout (spec part 1 §2.7, §4.4):
 * codes in (replace semantics, `[]` clears), codes echoed and every active discount out.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.js';

const DISCOUNT_CODES_MAX = 20;

export const DiscountsRequest = Type.Object({
  /** Case-insensitive; replaces the codes submitted before; `[]` clears them; absent keeps them. */
  codes: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: DISCOUNT_CODES_MAX })),
});
export type DiscountsRequest = Static<typeof DiscountsRequest>;

const Allocation = Type.Object({
  /** JSONPath of what the discount reduces, e.g. `$.line_items[1]`. */
  path: Type.String(),
  amount: Type.Integer({ minimum: 0 }),
});
type Allocation = Static<typeof Allocation>;

export const AppliedDiscount = Type.Object({
  /** Absent for automatic discounts. */
  code: Type.Optional(Type.String()),
  title: Type.String(),
  /**
   * Magnitude in minor units (entries of `totals` carry the negative sign). 0 while the discount
   * applies but has nothing to reduce yet, e.g. free shipping on a cart, which prices no shipping.
   */
  amount: Type.Integer({ minimum: 0 }),
  automatic: Type.Optional(Type.Boolean()),
  method: Type.Optional(StringEnum(['each', 'across'])),
  /** Stacking order, 1 applied first. */
  priority: Type.Optional(Type.Integer({ minimum: 1 })),
  provisional: Type.Optional(Type.Boolean()),
  /** The accepted claim from context.eligibility behind a provisional discount. */
  eligibility: Type.Optional(Type.String()),
  /** Sum exactly to `amount` when present; absent when the discount is on the order as a whole. */
  allocations: Type.Optional(Type.Array(Allocation)),
});
export type AppliedDiscount = Static<typeof AppliedDiscount>;

export const Discounts = Type.Object({
  /** The codes as submitted, rejected ones included. */
  codes: Type.Array(Type.String()),
  applied: Type.Array(AppliedDiscount),
});
export type Discounts = Static<typeof Discounts>;

/**
 * The members the extension adds to carts and checkouts (composed into cart.ts and checkout.ts):
 * read only, and present only, when the extension is active for the caller.
 */
export const DiscountMembers = {
  request: { discounts: Type.Optional(DiscountsRequest) },
  response: { discounts: Type.Optional(Discounts) },
};
