/**
 * A cart as the state store keeps it: the caller's inputs (lines with their gateway ids, context,
 * buyer, codes), who owns it and until when, the store's own cart (`handle`) and page for it.
 * Prices are not stored: every response is priced afresh by the store. A canceled cart leaves a tombstone without any buyer data until its
 * expiry, so a late update finds it canceled instead of recreating it.
 */
import { randomId } from '../../security/random-id.js';
import type { Attribution, Buyer, Context, Signals } from '../../../schemas/common.js';
import type { CartExtensionState } from '../../extensions/extension.js';
import type { PricedLineInput } from '../pricing/quote-request.js';
import type { StorePage } from '../pricing/store-page.js';

/** A line as priced: gateway line id, the store's variant id, quantity. */
type CartLine = PricedLineInput;

/** Each extension's part (`CartExtensionState`) is kept until replaced, unused while it is not active. */
export interface ActiveCart extends CartExtensionState {
  state: 'active';
  id: string;
  /** See ownership.ts. */
  owner: string;
  /** Epoch ms; the cart is gone from then on, whatever the store's TTL says. */
  expiresAt: number;
  lines: CartLine[];
  context?: Context;
  buyer?: Buyer;
  signals?: Signals;
  attribution?: Attribution;
  /** The store's cart for this one (adapter `Quote.handle`), handed back on every quote. */
  handle?: string;
  /** The store's page for it (`continue_url`), see pricing/store-page.ts. */
  storePage?: StorePage;
  /** The checkout last converted from this cart: converting again while it is open answers with it. */
  checkoutId?: string;
}

export interface CanceledCart {
  state: 'canceled';
  id: string;
  owner: string;
  expiresAt: number;
  canceledAt: number;
}

export type CartRecord = ActiveCart | CanceledCart;

/** 128 random bits: a cart id cannot be guessed. */
export const newCartId = () => randomId('cart_');

/** Still usable at `now`: neither canceled nor past its expiry. */
export const isLive = (cart: CartRecord | null, now: number): cart is ActiveCart => cart?.state === 'active' && now < cart.expiresAt;
