/**
 * A create where the store can price no line makes no cart or checkout session. When every line
 * is sold out or discontinued it is the spec's `out_of_stock` outcome (unrecoverable); otherwise
 * the per-line messages say what to fix. Either way `continue_url` sends the buyer to the store
 * (there is no session to hand over).
 */
import type { Quote } from '../../../adapters/contract.js';
import type { OperationContext } from '../context.js';
import { failure, type OperationResult } from '../operation.js';
import { isStockProblem, lineProblemMessages, type LineRef } from './line-messages.js';

export function nothingToBuy(ctx: OperationContext, quote: Quote, refs: ReadonlyMap<string, LineRef>): OperationResult {
  const problems = quote.lineProblems;
  const soldOut = problems.every(isStockProblem);
  return failure(lineProblemMessages(quote, refs, soldOut ? 'unrecoverable' : 'recoverable'), {
    continue_url: ctx.tenant.adapter.storefrontUrl,
  });
}
