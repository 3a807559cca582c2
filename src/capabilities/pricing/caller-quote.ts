/**
 * The quote request of a cart or checkout for this caller: its lines, the buyer identity from a
 * verified token, the store's currencies, and what the extensions add (codes and eligibility
 * claims priced only with the discount extension; fulfillment methods), with what they tell the
 * buyer after the request's own notices.
 */
import type { Buyer, Context } from '../../../schemas/common.js';
import type { ExtensionsPriced } from '../../extensions/steps.js';
import type { OperationContext } from '../context.js';
import { buyerIdentity } from './buyer-identity.js';
import { quoteRequest, type PricedLineInput } from './quote-request.js';

/** What carts and checkout sessions keep and price, besides the extensions' state. */
export interface PricedInputs {
  lines: readonly PricedLineInput[];
  context?: Context | undefined;
  buyer?: Buyer | undefined;
  /** The store's cart of this session (`Quote.handle`), handed back to the adapter. */
  handle?: string | undefined;
}

export function callerQuoteRequest(
  ctx: OperationContext,
  inputs: PricedInputs,
  extensions: ExtensionsPriced,
): ReturnType<typeof quoteRequest> {
  const added = extensions.quote;
  const { request, notices } = quoteRequest({
    lines: inputs.lines,
    context: inputs.context,
    buyer: inputs.buyer,
    identity: buyerIdentity(ctx),
    discountCodes: added.discountCodes ?? [],
    eligibility: added.eligibility ?? false,
    ...(inputs.handle !== undefined && { handle: inputs.handle }),
    currencies: ctx.tenant.adapter.capabilities.currencies,
  });
  return {
    request: { ...request, ...(added.fulfillment && { fulfillment: added.fulfillment }) },
    notices: [...notices, ...extensions.notices],
  };
}
