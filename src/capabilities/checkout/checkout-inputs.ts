/**
 * The inputs of a create or update: update replaces the whole session, so a member that is not
 * resent is dropped (spec part 1 §4.3). An extension's members are read only while it is active
 * for the caller; otherwise what the session holds of it is kept, unused. Instruments keep their
 * display fields only.
 *
 * A create with `cart_id` takes the lines, context and buyer of that cart (cart-conversion.ts) and
 * ignores the payload's; the cart's codes are carried forward, followed by payload codes it does
 * not already have (spec part 1 §2.5, §4.3).
 */
import type { CheckoutCreateRequest, CheckoutUpdateRequest } from '../../../schemas/checkout.js';
import type { Buyer, Context, Message } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { discountActive } from '../../extensions/discount/active.js';
import { fulfillmentActive } from '../../extensions/fulfillment/active.js';
import type { AskedOption } from '../../extensions/fulfillment/method-record.js';
import { readFulfillmentRequest } from '../../extensions/fulfillment/method-request.js';
import { shownInstruments } from './instruments.js';
import type { PricedLineInput } from '../pricing/quote-request.js';
import type { Locations } from './checkout-pricing.js';
import type { CheckoutInputs, CheckoutSession } from './checkout-record.js';

/** What the lines, context, buyer and codes come from: the payload, or a cart. */
export interface Basis {
  lines: PricedLineInput[];
  context?: Context | undefined;
  buyer?: Buyer | undefined;
  /** Codes carried forward (a cart's); the payload's follow. */
  carriedCodes: readonly string[];
}

export interface ReadInputs {
  inputs: CheckoutInputs;
  /** Options the platform asked for, to check against the quote. */
  asked: AskedOption[];
  /** What in the request could not be used. */
  messages: Message[];
}

function codes(ctx: OperationContext, basis: Basis, sent: readonly string[] | undefined, stored: readonly string[]): string[] {
  if (!discountActive(ctx.caller)) return [...basis.carriedCodes, ...stored];
  const carried = new Set(basis.carriedCodes.map((code) => code.trim().toUpperCase()));
  return [...basis.carriedCodes, ...(sent ?? []).filter((code) => !carried.has(code.trim().toUpperCase()))];
}

export async function readInputs(
  ctx: OperationContext,
  request: CheckoutCreateRequest | CheckoutUpdateRequest,
  basis: Basis,
  stored: CheckoutSession | undefined,
  locations: Locations,
): Promise<ReadInputs> {
  const fulfillment = fulfillmentActive(ctx.caller)
    ? await readFulfillmentRequest(request.fulfillment, stored?.fulfillment ?? [], locations)
    : { methods: stored?.fulfillment ?? [], asked: [], messages: [] };
  const inputs: CheckoutInputs = {
    lines: basis.lines,
    ...(basis.context && { context: basis.context }),
    ...(basis.buyer && { buyer: basis.buyer }),
    ...(request.signals && { signals: request.signals }),
    ...(request.attribution && { attribution: request.attribution }),
    discountCodes: codes(ctx, basis, request.discounts?.codes, stored?.discountCodes ?? []),
    fulfillment: fulfillment.methods,
    instruments: shownInstruments(request.payment?.instruments ?? []),
  };
  return { inputs, asked: fulfillment.asked, messages: fulfillment.messages };
}
