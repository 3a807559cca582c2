/**
 * Where a discount's allocations point (spec part 1 §2.7): the JSONPath of what they reduce in the
 * rendered resource. Lines are the resource's own; extensions add the paths of what they render
 * (fulfillment groups), so the discount extension can name every target without knowing them.
 */
import type { AllocationTarget } from '../../adapters/contract.js';

/** JSONPath of an allocation target in the rendered resource; undefined when it has none. */
export type AllocationPath = (target: AllocationTarget) => string | undefined;

/** Line targets by the rendered line items' paths (see capabilities/pricing/line-items.ts lineItemPaths). */
export const lineAllocationPath =
  (linePaths: ReadonlyMap<string, string>): AllocationPath =>
  (target) =>
    target.kind === 'line' ? linePaths.get(target.lineId) : undefined;

/** The first path any of `paths` knows. */
export const firstPath =
  (paths: readonly AllocationPath[]): AllocationPath =>
  (target) => {
    for (const pathOf of paths) {
      const path = pathOf(target);
      if (path !== undefined) return path;
    }
    return undefined;
  };
