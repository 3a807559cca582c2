/**
 * The `discounts` member of cart and checkout (spec part 1 §2.7): codes submitted replace the
 * stored ones (`[]` clears them, absent keeps them), and the response echoes every submitted code
 * (rejected ones too) next to every active discount.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Discounts, DiscountsRequest } from '../../../schemas/discount.js';
import type { AllocationPath } from '../allocation-path.js';
import { renderApplied } from './applied.js';

export function submittedCodes(request: DiscountsRequest | undefined, stored: readonly string[]): string[] {
  return [...(request?.codes ?? stored)];
}

export function renderDiscounts(codes: readonly string[], quote: Quote, pathOf: AllocationPath): Discounts {
  return { codes: [...codes], applied: renderApplied(quote.discounts.applied, pathOf) };
}
