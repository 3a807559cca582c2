/**
 * The protocol's totals from Medusa's, for a cart and for an order alike. Medusa's figures are
 * unrounded major units computed as its line-item totals do (@medusajs/utils totals/line-item,
 * getLineItemTotals): an item's `subtotal` is unit_price × quantity, without the tax inside it
 * when the price includes tax; an adjustment's `subtotal` is the discount before tax; the tax is
 * added to what is left. Each figure is rounded to the minor unit on its own, the total as it is
 * charged (money.ts), so the parts can miss the total by a cent: that cent goes onto the largest
 * discount allocation (a percentage's remainder), else the tax added, so the totals add up and
 * equal what Medusa charges without a discount Medusa never gave. Prices that include tax are
 * shown as priced (lines, shipping and discounts with their tax, included-tax.ts), the tax inside
 * them as `includedTax`, outside the sum.
 */
import type { AllocationTarget, AppliedDiscount } from '../contract.js';
import { toMinor } from './money.js';
import type { MedusaAdjustment } from './shapes.js';

export interface Totals {
  subtotal: number;
  itemsDiscount: number;
  discount: number;
  shipping: number | null;
  tax: number | null;
  includedTax?: number;
  total: number;
}

export interface RoundedParts {
  /** Sum of the lines' rounded subtotals. */
  subtotal: number;
  shipping: number | null;
  tax: number | null;
  total: number;
  /** The tax the prices contain (never part of the sum). */
  includedTax?: number;
}

type Allocation = AppliedDiscount['allocations'][number];

const isLine = (a: Allocation) => a.target.kind === 'line';
const sum = (allocations: Allocation[]) => allocations.reduce((n, a) => n + a.amount, 0);

/**
 * The totals, with the cent that rounding leaves moved onto the tax or a discount allocation (its
 * discount's amount follows, so every discount still equals the sum of its allocations).
 */
export function settleTotals(parts: RoundedParts, discounts: AppliedDiscount[]): Totals {
  const entries = discounts.flatMap((d) => d.allocations.map((a) => ({ d, a })));
  let tax = parts.tax;
  const drift = parts.subtotal - sum(entries.map((e) => e.a)) + (parts.shipping ?? 0) + (tax ?? 0) - parts.total;
  if (drift !== 0) {
    const largest = [...entries].sort((x, y) => Number(isLine(y.a)) - Number(isLine(x.a)) || y.a.amount - x.a.amount)[0];
    if (tax !== null && !largest) tax -= drift;
    else if (largest) {
      largest.a.amount += drift;
      largest.d.amount += drift;
    }
  }
  const allocations = entries.map((e) => e.a);
  const itemsDiscount = sum(allocations.filter(isLine));
  const discount = sum(allocations.filter((a) => !isLine(a)));
  // Nothing to move the cent onto (no tax, no discount): the items discount carries it.
  const unexplained = parts.subtotal - itemsDiscount - discount + (parts.shipping ?? 0) + (tax ?? 0) - parts.total;
  return {
    subtotal: parts.subtotal,
    itemsDiscount: itemsDiscount + unexplained,
    discount,
    shipping: parts.shipping,
    tax,
    ...(parts.includedTax !== undefined && { includedTax: parts.includedTax }),
    total: parts.total,
  };
}

/** Adjustments of one line or shipping method, and what they reduce. */
export interface Adjusted {
  target: AllocationTarget;
  adjustments: MedusaAdjustment[];
  /** The price includes tax: the discount is shown with its tax (an adjustment's `total`), as the price is. */
  gross?: boolean;
}

/**
 * Medusa's adjustments as the protocol's discounts: one per code (or promotion), its allocations
 * each rounded, before tax (an adjustment's `subtotal`, as Medusa reports it), with it on a price
 * that includes tax (`total`). `codes` are the
 * codes as the buyer submitted them: any other promotion is automatic.
 */
export function discountsOf(adjusted: Adjusted[], codes: string[], currency: string): AppliedDiscount[] {
  const byCode = new Map<string, AppliedDiscount>();
  for (const { target, adjustments, gross } of adjusted)
    for (const adjustment of adjustments) {
      const code = String(adjustment.code ?? adjustment.promotion_id);
      let discount = byCode.get(code.toUpperCase());
      if (!discount) {
        const submitted = codes.find((c) => c.toUpperCase() === code.toUpperCase());
        discount = {
          ...(submitted && { code: submitted }),
          title: adjustment.description ?? code,
          amount: 0,
          automatic: !submitted,
          method: 'across',
          priority: byCode.size + 1,
          allocations: [],
        };
        byCode.set(code.toUpperCase(), discount);
      }
      const amount = toMinor((gross ? adjustment.total : adjustment.subtotal) ?? adjustment.amount, currency);
      discount.amount += amount;
      discount.allocations.push({ target, amount });
    }
  return [...byCode.values()].filter((d) => d.amount > 0);
}
