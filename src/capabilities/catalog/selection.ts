/**
 * get_product's effective selection (spec part 1 §4.1 rules 3-4). Selections are matched without
 * regard to case and answered in the product's own spelling; those naming no option or value of
 * the product can never match and are dropped first. When no variant has every remaining value,
 * relaxation drops selections one at a time: first those not named in `preferences` (from the end
 * of `selected`), then the preferences from the end. Without preferences that is simply the order
 * of `selected`, the earlier selections being kept longest.
 */
import type { CatalogProduct } from '../../../adapters/contract.js';
import type { SelectedOption } from '../../../schemas/catalog.js';
import { matches, type Selection } from './option-matrix.js';

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/** The requested selections in the product's spelling, without those the product cannot have. */
export function canonicalSelection(product: CatalogProduct, requested: readonly SelectedOption[]): SelectedOption[] {
  return requested.flatMap((s) => {
    const axis = product.options.find((o) => same(o.name, s.name));
    const label = axis?.values.find((v) => same(v, s.label));
    return axis && label !== undefined ? [{ name: axis.name, label }] : [];
  });
}

export function relax(product: CatalogProduct, selection: Selection, preferences: readonly string[] = []): SelectedOption[] {
  const rank = (s: SelectedOption) => preferences.findIndex((p) => same(p, s.name));
  const unranked = selection.filter((s) => rank(s) < 0).reverse();
  const ranked = selection.filter((s) => rank(s) >= 0).sort((a, b) => rank(b) - rank(a));
  const dropOrder = [...unranked, ...ranked];
  let current = [...selection];
  for (const next of dropOrder) {
    if (product.variants.some((v) => matches(v, current))) break;
    current = current.filter((s) => s !== next);
  }
  return current;
}
