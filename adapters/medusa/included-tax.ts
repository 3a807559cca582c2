/**
 * The tax a Medusa cart's or order's prices already contain. Medusa decides per price whether it
 * includes tax (price preferences per region or currency, `is_tax_inclusive` on each line item and
 * shipping method: pricing module isTaxInclusive), and reports per item and shipping method the
 * tax of what is paid for it, after discounts (`tax_total`; @medusajs/utils totals/line-item
 * getLineItemTotals, totals/shipping-method). The tax of the parts whose prices include it is
 * the included tax (`includedTax`), itemized by the name of their tax rate (Medusa's tax line
 * `description`, the rate's name: "VAT"), each rounded to the minor unit once, as Medusa's
 * `tax_total` is (75.00 with 19 % VAT inside: 11.97, not 11.18 + 0.80 of items and shipping).
 */
import type { Quote } from '../contract.js';
import { toMinor } from './money.js';
import type { Amount, Maybe } from './shapes.js';

/** A line item or shipping method with what Medusa says of its tax. */
interface TaxedPart {
  is_tax_inclusive?: Maybe<boolean>;
  tax_total?: Maybe<Amount>;
  tax_lines?: Maybe<Array<{ description?: Maybe<string>; code?: Maybe<string> }>>;
}

interface IncludedTax {
  /** Sum of `taxLines`. */
  includedTax: number;
  taxLines: Quote['taxLines'];
}

/** Its tax rate's name: the one line's, else "Tax" (several rates on one part are not split). */
const titleOf = (part: TaxedPart) => {
  const lines = part.tax_lines ?? [];
  return (lines.length === 1 && (lines[0]!.description || lines[0]!.code)) || 'Tax';
};

/** The tax inside the prices of `parts`, per rate name; undefined when no price includes tax. */
function includedTaxOf(parts: TaxedPart[], currency: string): IncludedTax | undefined {
  const inclusive = parts.filter((p) => p.is_tax_inclusive === true);
  if (inclusive.length === 0) return undefined;
  const byTitle = new Map<string, number>();
  for (const part of inclusive) byTitle.set(titleOf(part), (byTitle.get(titleOf(part)) ?? 0) + Number(part.tax_total ?? 0));
  const taxLines = [...byTitle]
    .map(([title, amount]) => ({ title, amount: toMinor(amount, currency), included: true }))
    .filter((t) => t.amount > 0);
  return { includedTax: taxLines.reduce((s, t) => s + t.amount, 0), taxLines };
}

/**
 * The tax of `parts` as the protocol shows it: added on top of the prices (`tax`: the tax of the
 * parts whose prices exclude it; Medusa's `taxTotal` when none includes it) and inside them.
 */
export function splitTax(parts: TaxedPart[], taxTotal: Maybe<Amount>, currency: string): { tax: number; included?: IncludedTax } {
  const included = includedTaxOf(parts, currency);
  if (!included) return { tax: toMinor(taxTotal ?? 0, currency) };
  const added = parts.filter((p) => p.is_tax_inclusive !== true).reduce((s, p) => s + Number(p.tax_total ?? 0), 0);
  return { tax: toMinor(added, currency), included };
}

/** Shipping as priced: the methods' prices (with the tax inside those that include it), else Medusa's shipping subtotal (before tax). */
export function shippingAsPriced(
  methods: Array<TaxedPart & { amount?: Maybe<Amount> }>,
  shippingSubtotal: Maybe<Amount>,
  currency: string,
): number {
  return methods.some((m) => m.is_tax_inclusive === true)
    ? methods.reduce((s, m) => s + toMinor(m.amount ?? 0, currency), 0)
    : toMinor(shippingSubtotal ?? 0, currency);
}
