/**
 * The quote request of a cart or checkout for this caller: codes and eligibility claims only with
 * the discount extension, the buyer identity from a verified token, the store's currencies; claims
 * nothing is priced for are told about (eligibility.ts).
 */
import type { Buyer, Context } from '../../../schemas/common.js';
import type { OperationContext } from '../../operations/context.js';
import { discountActive } from '../../extensions/discount/active.js';
import { unacceptedClaims } from '../../extensions/discount/eligibility.js';
import { buyerIdentity } from './buyer-identity.js';
import { quoteRequest, type PricedLineInput } from './quote-request.js';

/** What carts and checkout sessions keep and price. */
export interface PricedInputs {
  lines: readonly PricedLineInput[];
  context?: Context | undefined;
  buyer?: Buyer | undefined;
  /** As submitted (discount extension); read only while the extension is active. */
  discountCodes: readonly string[];
}

export function callerQuoteRequest(ctx: OperationContext, inputs: PricedInputs): ReturnType<typeof quoteRequest> {
  const discounts = discountActive(ctx.caller);
  const { request, notices } = quoteRequest({
    lines: inputs.lines,
    context: inputs.context,
    buyer: inputs.buyer,
    identity: buyerIdentity(ctx),
    discountCodes: discounts ? inputs.discountCodes : [],
    eligibility: discounts,
    currencies: ctx.tenant.adapter.capabilities.currencies,
  });
  const claims = unacceptedClaims(inputs.context?.eligibility, ctx.tenant.adapter.capabilities.acceptedClaims, discounts);
  return { request, notices: [...notices, ...claims] };
}
