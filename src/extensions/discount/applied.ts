/**
 * The store's applied discounts as protocol applied discounts (spec part 1 §2.7): allocations
 * get the JSONPath of what they reduce. Where some target has no path (a discount on the order
 * as a whole), `allocations` is left out, so the listed ones always sum to the amount and the
 * discount counts as unallocated (`discount` total). Only discounts that reduce something are
 * listed (`amount` is a positive integer): one with nothing to reduce yet appears once it does.
 */
import type { AppliedDiscount as QuotedDiscount } from '../../../adapters/contract.js';
import type { AppliedDiscount } from '../../../schemas/discount.js';
import type { AllocationPath } from '../allocation-path.js';

function allocationsOf(discount: QuotedDiscount, pathOf: AllocationPath): AppliedDiscount['allocations'] {
  const allocations = discount.allocations.map(({ target, amount }) => ({ path: pathOf(target), amount }));
  if (allocations.some((a) => a.path === undefined)) return undefined;
  return allocations as Array<{ path: string; amount: number }>;
}

export function renderApplied(applied: readonly QuotedDiscount[], pathOf: AllocationPath): AppliedDiscount[] {
  return applied
    .filter((discount) => discount.amount > 0)
    .map((discount) => {
      const allocations = allocationsOf(discount, pathOf);
      return {
        ...(discount.code !== undefined && { code: discount.code }),
        title: discount.title,
        amount: discount.amount,
        automatic: discount.automatic,
        method: discount.method,
        priority: discount.priority,
        ...(discount.provisional && { provisional: true }),
        ...(discount.eligibility !== undefined && { eligibility: discount.eligibility }),
        ...(allocations && { allocations }),
      };
    });
}
