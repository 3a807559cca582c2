/**
 * Lookup by variant id, SKU (any case), product id or handle, tried in that order. An id naming a variant
 * matches it `exact`; one naming a product matches its featured variant `featured`.
 */
import type { LookupResult } from '../contract.js';
import type { StoreData } from './model.js';

export function lookup(data: StoreData, ids: string[]): LookupResult[] {
  const results = new Map<string, LookupResult>();
  for (const id of new Set(ids)) {
    const variant = data.variants.get(id) ?? data.variantsBySku.get(id.toLowerCase());
    const product = variant ? variant.product : (data.productsById.get(id) ?? data.productsByHandle.get(id));
    if (!product) continue;
    const result = results.get(product.id) ?? { product, inputs: [] };
    result.inputs.push(
      variant ? { id, variantId: variant.variant.id, match: 'exact' } : { id, variantId: product.featuredVariantId, match: 'featured' },
    );
    results.set(product.id, result);
  }
  return [...results.values()];
}
