/**
 * The first step of a create or update: the request read into the session to price (the draft).
 * Update replaces the whole session, so a member that is not resent is dropped (spec part 1 §4.3);
 * what the session keeps besides (its id, owner, the store's cart and page, the claims verified at
 * completion) is carried over. An extension's members are read only while it is active for the
 * caller; otherwise what the session holds of it is kept, unused. Instruments keep their display
 * fields only.
 *
 * A create with `cart_id` takes the lines, context and buyer of that cart (cart-conversion.ts) and
 * ignores the payload's; the extensions carry forward what the cart holds of them (the discount
 * extension: the cart's codes, followed by payload codes it does not already have; spec part 1
 * §2.5, §4.3).
 */
import type { PickupLocation } from '../../../adapters/contract.js';
import type { CheckoutCreateRequest, CheckoutUpdateRequest } from '../../../schemas/checkout.js';
import type { Buyer, Context, Message } from '../../../schemas/common.js';
import type { CartExtensionState, CheckoutAsks } from '../../extensions/extension.js';
import { readCheckout } from '../../extensions/steps.js';
import type { OperationContext } from '../context.js';
import { callerOwner } from '../cart/ownership.js';
import type { PricedLineInput } from '../pricing/quote-request.js';
import { shownInstruments } from './instruments.js';
import { expiryFrom, newCheckoutId, type CheckoutSession, type OpenCheckout } from './checkout-record.js';

/** The store's pickup locations, asked for at most once per request (reading pickup destinations, showing them). */
export type Locations = () => Promise<PickupLocation[]>;

export function pickupLocationsOnce(ctx: OperationContext): Locations {
  let locations: Promise<PickupLocation[]> | undefined;
  return () => (locations ??= ctx.tenant.adapter.pickupLocations());
}

/** What the lines, context and buyer come from: the payload, or a cart. */
export interface Basis {
  lines: PricedLineInput[];
  context?: Context | undefined;
  buyer?: Buyer | undefined;
  /** The cart's state of the extensions, carried forward. */
  carried?: CartExtensionState;
}

export interface Draft {
  /** The session to price: the request's inputs, what the session keeps, a fresh expiry; its status is decided once priced. */
  session: OpenCheckout;
  /** What the platform asked for (options), to check against the quote. */
  asks: Partial<CheckoutAsks>;
  /** What in the request could not be used. */
  messages: Message[];
}

/** What a session keeps across an update besides the platform's inputs; a new one gets its id and owner. */
function kept(ctx: OperationContext, stored: CheckoutSession | undefined) {
  if (!stored) return { id: newCheckoutId(), owner: callerOwner(ctx) };
  const { id, owner, handle, storePage, verifiedClaims } = stored;
  return {
    id,
    owner,
    ...(handle !== undefined && { handle }),
    ...(storePage && { storePage }),
    ...(verifiedClaims && { verifiedClaims }),
  };
}

/** `stored`: the session an update replaces (none for a create). */
export async function readDraft(
  ctx: OperationContext,
  request: CheckoutCreateRequest | CheckoutUpdateRequest,
  basis: Basis,
  locations: Locations,
  stored?: CheckoutSession,
): Promise<Draft> {
  const extensions = await readCheckout(ctx, request, stored, basis.carried, locations);
  const session: OpenCheckout = {
    ...kept(ctx, stored),
    lines: basis.lines,
    ...(basis.context && { context: basis.context }),
    ...(basis.buyer && { buyer: basis.buyer }),
    ...(request.signals && { signals: request.signals }),
    ...(request.attribution && { attribution: request.attribution }),
    ...extensions.state,
    instruments: shownInstruments(request.payment?.instruments ?? []),
    expiresAt: expiryFrom(ctx),
    status: 'incomplete',
    seenTotals: [],
  };
  return { session, asks: extensions.asks, messages: extensions.messages };
}
