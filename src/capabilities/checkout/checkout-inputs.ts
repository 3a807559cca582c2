/**
 * The inputs of a create or update: update replaces the whole session, so a member that is not
 * resent is dropped (spec part 1 §4.3). An extension's members are read only while it is active
 * for the caller; otherwise what the session holds of it is kept, unused. Instruments keep their
 * display fields only.
 *
 * A create with `cart_id` takes the lines, context and buyer of that cart (cart-conversion.ts) and
 * ignores the payload's; the extensions carry forward what the cart holds of them (the discount
 * extension: the cart's codes, followed by payload codes it does not already have; spec part 1
 * §2.5, §4.3).
 */
import type { CheckoutCreateRequest, CheckoutUpdateRequest } from '../../../schemas/checkout.js';
import type { Buyer, Context, Message } from '../../../schemas/common.js';
import type { CartExtensionState, CheckoutAsks } from '../../extensions/extension.js';
import { readCheckout } from '../../extensions/steps.js';
import type { OperationContext } from '../context.js';
import { shownInstruments } from './instruments.js';
import type { PricedLineInput } from '../pricing/quote-request.js';
import type { Locations } from './checkout-pricing.js';
import type { CheckoutInputs, CheckoutSession } from './checkout-record.js';

/** What the lines, context and buyer come from: the payload, or a cart. */
export interface Basis {
  lines: PricedLineInput[];
  context?: Context | undefined;
  buyer?: Buyer | undefined;
  /** The cart's state of the extensions, carried forward. */
  carried?: CartExtensionState;
}

export interface ReadInputs {
  inputs: CheckoutInputs;
  /** What the platform asked for (options), to check against the quote. */
  asks: Partial<CheckoutAsks>;
  /** What in the request could not be used. */
  messages: Message[];
}

export async function readInputs(
  ctx: OperationContext,
  request: CheckoutCreateRequest | CheckoutUpdateRequest,
  basis: Basis,
  stored: CheckoutSession | undefined,
  locations: Locations,
): Promise<ReadInputs> {
  const extensions = await readCheckout(ctx, request, stored, basis.carried, locations);
  const inputs: CheckoutInputs = {
    lines: basis.lines,
    ...(basis.context && { context: basis.context }),
    ...(basis.buyer && { buyer: basis.buyer }),
    ...(request.signals && { signals: request.signals }),
    ...(request.attribution && { attribution: request.attribution }),
    ...extensions.state,
    instruments: shownInstruments(request.payment?.instruments ?? []),
  };
  return { inputs, asks: extensions.asks, messages: extensions.messages };
}
