/**
 * Option values relative to a selection (spec part 1 §3, §4.1 get_product rule 5): a value
 * `exists` when some variant has it together with the other selected options, and is
 * `available` when such a variant can be bought now. Relative to the empty selection (search,
 * lookup) that is: some variant has it, some buyable variant has it.
 */
import type { CatalogProduct, CatalogVariant } from '../../../adapters/contract.js';
import type { ProductOption, SelectedOption } from '../../../schemas/catalog.js';

export type Selection = readonly SelectedOption[];

/** The variant has every selected option value (in the product's own spelling). */
export const matches = (variant: CatalogVariant, selection: Selection): boolean =>
  selection.every((s) => variant.options.some((o) => o.name === s.name && o.value === s.label));

export function optionMatrix(product: CatalogProduct, selection: Selection): ProductOption[] {
  return product.options.map((axis) => {
    const others = selection.filter((s) => s.name !== axis.name);
    return {
      name: axis.name,
      values: axis.values.map((label) => {
        const candidates = product.variants.filter((v) => matches(v, [...others, { name: axis.name, label }]));
        return { label, available: candidates.some((v) => v.availability.available), exists: candidates.length > 0 };
      }),
    };
  });
}
