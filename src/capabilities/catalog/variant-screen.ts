/**
 * Which variants pass a request's gateway-side filters (price, and those of the active extensions:
 * fulfillment), which products pass its categories, and the members the extensions add to each
 * variant shown. Each extension asks the store up front only for what it filters on; otherwise
 * only for the variants finally shown.
 */
import type { CatalogProduct, CatalogVariant } from '../../../adapters/contract.js';
import type { Variant } from '../../../schemas/catalog.js';
import type { CatalogFilterSet } from './filters.js';

/** Buyable variants first, otherwise in the store's order. */
export const buyableFirst = (variants: readonly CatalogVariant[]): CatalogVariant[] =>
  [...variants].sort((a, b) => Number(b.availability.available) - Number(a.availability.available));

export class VariantScreen {
  private constructor(private readonly filters: CatalogFilterSet) {}

  /** A screen for these products' variants. */
  static async of(filters: CatalogFilterSet, products: readonly CatalogProduct[]): Promise<VariantScreen> {
    const variants = products.flatMap((p) => p.variants);
    for (const part of filters.extensions) await part.prepare?.(variants);
    return new VariantScreen(filters);
  }

  /** OR over category values, without regard to case (as the adapters' search matches them). */
  inCategories(product: CatalogProduct): boolean {
    const wanted = this.filters.categories?.map((c) => c.toLowerCase());
    return !wanted || product.categories.some((c) => wanted.includes(c.value.toLowerCase()));
  }

  passes(variant: CatalogVariant): boolean {
    const { price, extensions } = this.filters;
    // A price in another currency than the bounds was already judged by the store.
    const priced =
      !price ||
      variant.price.currency !== price.currency ||
      ((price.min === undefined || variant.price.amount >= price.min) && (price.max === undefined || variant.price.amount <= price.max));
    return priced && extensions.every((part) => part.passes?.(variant) ?? true);
  }

  /** The active extensions' members of each shown variant; undefined when none is active. */
  async extensionMembers(variants: readonly CatalogVariant[]): Promise<Map<string, Partial<Variant>> | undefined> {
    const { extensions } = this.filters;
    if (extensions.length === 0) return undefined;
    const members = new Map<string, Partial<Variant>>();
    for (const part of extensions) {
      for (const [id, added] of await part.render(variants)) members.set(id, { ...members.get(id), ...added });
    }
    return members;
  }
}
