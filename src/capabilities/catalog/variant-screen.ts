/**
 * Which variants pass a request's gateway-side filters (price, fulfillment), which products pass
 * its categories, and the fulfillment each shown variant reports. Fulfillment answers are asked
 * for up front only when they filter; otherwise only for the variants finally shown.
 */
import type { CatalogProduct, CatalogVariant, VariantFulfillment } from '../../../adapters/contract.js';
import type { CatalogFulfillment } from '../../../schemas/catalog.js';
import { discover, fulfills, toCatalogFulfillment } from '../../extensions/fulfillment/catalog-discovery.js';
import type { CatalogReader } from './catalog-cache.js';
import type { CatalogFilterSet } from './filters.js';

/** Buyable variants first, otherwise in the store's order. */
export const buyableFirst = (variants: readonly CatalogVariant[]): CatalogVariant[] =>
  [...variants].sort((a, b) => Number(b.availability.available) - Number(a.availability.available));

export class VariantScreen {
  private constructor(
    private readonly filters: CatalogFilterSet,
    private readonly reader: CatalogReader,
    private readonly answers: Map<string, VariantFulfillment>,
  ) {}

  /** A screen for these products' variants. */
  static async of(filters: CatalogFilterSet, reader: CatalogReader, products: readonly CatalogProduct[]): Promise<VariantScreen> {
    const plan = filters.discovery;
    const answers = plan?.filtering
      ? await discover(
          plan,
          products.flatMap((p) => p.variants),
          (q) => reader.discoverFulfillment(q),
        )
      : new Map<string, VariantFulfillment>();
    return new VariantScreen(filters, reader, answers);
  }

  /** OR over category values, without regard to case (as the adapters' search matches them). */
  inCategories(product: CatalogProduct): boolean {
    const wanted = this.filters.categories?.map((c) => c.toLowerCase());
    return !wanted || product.categories.some((c) => wanted.includes(c.value.toLowerCase()));
  }

  passes(variant: CatalogVariant): boolean {
    const { price, discovery } = this.filters;
    // A price in another currency than the bounds was already judged by the store.
    const priced =
      !price ||
      variant.price.currency !== price.currency ||
      ((price.min === undefined || variant.price.amount >= price.min) && (price.max === undefined || variant.price.amount <= price.max));
    return priced && (!discovery || fulfills(variant, this.answers.get(variant.id), discovery));
  }

  /** The fulfillment extension's answer per shown variant; undefined when it is not active. */
  async fulfillment(variants: readonly CatalogVariant[]): Promise<Map<string, CatalogFulfillment> | undefined> {
    const plan = this.filters.discovery;
    if (!plan) return undefined;
    const missing = variants.filter((v) => !this.answers.has(v.id));
    if (missing.length > 0) {
      for (const [id, answer] of await discover(plan, missing, (q) => this.reader.discoverFulfillment(q))) this.answers.set(id, answer);
    }
    return new Map(
      variants.flatMap((v) => {
        const answer = this.answers.get(v.id);
        return answer ? [[v.id, toCatalogFulfillment(answer, v.price.currency)] as const] : [];
      }),
    );
  }
}
