/**
 * Sales tax by where each line goes: its group's shipping address or pickup location; digital
 * lines and cart estimates use the buyer's location hint (digital lines fall back to a shipping
 * address). Discounted amounts are taxed; shipping too where the rule says so. Per rule, the
 * taxable total is multiplied by the rate and rounded half up once. Unknown place -> null.
 *
 * A store whose prices include tax (`data.tax.included`) adds none: per rule, the tax its gross
 * taxable total contains (× rate / (1 + rate), rounded half up once) is reported as included.
 */
import type { PostalAddress, Quote, QuoteRequest } from '../contract.js';
import type { GroupState } from './fulfillment.js';
import type { PricedLine } from './lines.js';
import type { StoreData, TaxRule } from './model.js';
import { mulDivRoundHalfUp } from './money-math.js';

type Place = Pick<PostalAddress, 'country' | 'region'>;

/** The most specific rule for a place; null when the country's rules need a region it lacks. */
function taxRuleFor(data: StoreData, place: Place): TaxRule | null {
  const country = place.country!.toUpperCase();
  const region = place.region?.toUpperCase();
  const exact = region && data.tax.rules.find((r) => r.region === `${country}-${region}`);
  if (exact) return exact;
  const needsRegion = data.tax.rules.some((r) => r.region.startsWith(`${country}-`));
  if (needsRegion && !region) return null;
  return data.tax.rules.find((r) => r.region === country) ?? data.tax.fallback;
}

export interface TaxInput {
  lines: PricedLine[];
  groups: GroupState[];
  /** Line amounts after discounts. */
  remaining: Map<string, number>;
  /** Shipping discount per group (see discounts.groupRef). */
  shippingDiscount: (g: GroupState) => number;
  location: QuoteRequest['location'];
}

export interface ComputedTax {
  /** Added to the prices; null when some line's place is unknown. */
  tax: number | null;
  /** Contained in the prices (a tax-inclusive store), when known and not 0. */
  includedTax?: number;
  taxLines: Quote['taxLines'];
}

export function computeTax(data: StoreData, input: TaxInput): ComputedTax {
  const groupOf = new Map(input.groups.flatMap((g) => g.lines.map((l) => [l, g] as const)));
  const hint = input.location?.country ? input.location : undefined;
  const shippingPlace = input.groups.find((g) => g.type === 'shipping' && g.taxAddress)?.taxAddress;
  const bases = new Map<TaxRule, number>();
  const add = (rule: TaxRule, amount: number) => bases.set(rule, (bases.get(rule) ?? 0) + amount);

  for (const line of input.lines) {
    const place = groupOf.get(line)?.taxAddress ?? hint ?? (line.quoted.requiresShipping ? undefined : shippingPlace);
    const rule = place && taxRuleFor(data, place);
    if (!rule) return { tax: null, taxLines: [] };
    add(rule, input.remaining.get(line.quoted.lineId)!);
  }
  for (const group of input.groups) {
    if (!group.selected || !group.taxAddress) continue;
    const rule = taxRuleFor(data, group.taxAddress);
    if (rule?.shippingTaxable) add(rule, group.selected.option.amount - input.shippingDiscount(group));
  }
  const included = data.tax.included === true;
  const taxLines = [...bases]
    .map(([rule, base]) => ({
      title: rule.title,
      amount: mulDivRoundHalfUp(base, rule.ppm, included ? 1_000_000 + rule.ppm : 1_000_000),
      ...(included && { included }),
    }))
    .filter((t) => t.amount > 0);
  const sum = taxLines.reduce((s, t) => s + t.amount, 0);
  if (!included) return { tax: sum, taxLines };
  return { tax: 0, ...(sum > 0 && { includedTax: sum }), taxLines };
}
