/**
 * Line items of cart and checkout (spec part 1 §2.5): what a platform sends (an item id and a
 * quantity, optionally the line id on update) and what the business answers (the item as the
 * store prices it, with per-line totals).
 */
import { Type, type Static } from '@sinclair/typebox';
import { Amount, Total } from './common.js';

/** Wide enough for any real order, small enough that price x quantity stays a safe integer. */
const MAX_QUANTITY = 1_000_000;

export const LineItemRequest = Type.Object({
  /** The gateway's line id from an earlier response; keeps the line's identity across updates. */
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  item: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
  /**
   * Any integer passes validation so that a quantity below 1 is a recoverable business message
   * (`invalid_quantity` with its path) rather than a transport error; absent means 1.
   */
  quantity: Type.Optional(Type.Integer({ minimum: -MAX_QUANTITY, maximum: MAX_QUANTITY })),
});
export type LineItemRequest = Static<typeof LineItemRequest>;

export const MAX_LINE_ITEMS = 100;

export const Item = Type.Object({
  /** The store's variant id. */
  id: Type.String(),
  title: Type.String(),
  /** Unit price in minor units of the cart currency. */
  price: Amount,
  image_url: Type.Optional(Type.String({ format: 'uri' })),
});
export type Item = Static<typeof Item>;

export const LineItem = Type.Object({
  id: Type.String(),
  item: Item,
  quantity: Type.Integer({ minimum: 1 }),
  totals: Type.Array(Total),
});
export type LineItem = Static<typeof LineItem>;
