/**
 * The shop's checkout prices: the demo engine's quote (the "shop's checkout"), and for a shop whose
 * prices include tax ("Include sales tax in product price and shipping rate" in Settings > Taxes
 * and duties; Admin 2026-10 `Shop.taxesIncluded` "Whether applicable taxes are included in the
 * shop's product prices", `DraftOrder.taxesIncluded` / `CalculatedDraftOrder.taxesIncluded`
 * "Whether the line item prices include taxes") the tax is the part of each price that is tax,
 * price x rate / (1 + rate), and the total is what the prices add up to: nothing is added.
 */
import type { Quote, QuoteRequest } from '../../adapters/contract.js';
import { mulDivRoundHalfUp } from '../../adapters/memory/money-math.js';
import type { StoreData } from '../../adapters/memory/model.js';
import { quote } from '../../adapters/memory/quote.js';

const FULL = 1_000_000;

/** What one tax rule taxes in a quote: its rate (parts per million) and the taxable amount, after discounts. */
export interface TaxBase {
  title: string;
  ppm: number;
  base: number;
}

/** The taxable amount per rule, exactly: the engine taxing every rule at 100 % (titled by index). */
export function taxBases(data: StoreData, request: QuoteRequest, now: number): TaxBase[] {
  const rules = [...data.tax.rules, data.tax.fallback];
  const at100 = rules.map((r, i) => ({ ...r, title: String(i), ppm: FULL }));
  return quote({ ...data, tax: { rules: at100.slice(0, -1), fallback: at100.at(-1)! } }, request, now).taxLines.map((b) => {
    const rule = rules[Number(b.title)]!;
    return { title: rule.title, ppm: rule.ppm, base: b.amount };
  });
}

export function shopQuote(data: StoreData, request: QuoteRequest, now: number, taxesIncluded: boolean): Quote {
  const q = quote(data, request, now);
  if (!taxesIncluded || q.totals.tax === null) return q;
  const taxLines = taxBases(data, request, now)
    .map((b) => ({ title: b.title, amount: mulDivRoundHalfUp(b.base, b.ppm, FULL + b.ppm) }))
    .filter((t) => t.amount > 0);
  const tax = taxLines.reduce((s, t) => s + t.amount, 0);
  return { ...q, taxLines, totals: { ...q.totals, tax, total: q.totals.total - q.totals.tax } };
}
