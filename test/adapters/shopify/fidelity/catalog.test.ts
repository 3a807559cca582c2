/**
 * Fidelity: the catalog calls within Shopify's limits.
 * - `nodes(ids:)` (Storefront 2026-10): "The input must not contain more than `250` values"; an
 *   id it cannot show is null, in the order asked. A tenant may allow lookups of up to 1,000 ids
 *   (`lookup_batch_limit`).
 * - `productVariants(first:, query:)` (Admin 2026-10) answers at most `first` variants however many
 *   SKUs the query ORs; SKUs are not unique on Shopify.
 * - `products(first:)` and `search(first:)` take at most 250 ("Limits": input arrays and pages
 *   hold at most 250 items) and page by cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shopifySetup, type ShopifySetup } from '../helpers.js';

let s: ShopifySetup;
beforeAll(async () => {
  s = await shopifySetup();
});
afterAll(() => s.close());

const SKUS = [
  'FLW-ROSE-12',
  'POT-CER-6',
  'FLW-SUN-10',
  'FLW-TUL-15',
  'PLT-ORC-WHT',
  'PLT-GAR-1',
  'TEE-S-GRN',
  'TEE-M-GRN',
  'TEE-L-GRN',
  'TEE-M-WHT',
  'TEE-L-WHT',
  'EBK-CARE-01',
  'VAS-GLS-25',
  'FLW-PEO-8',
];

describe('Shopify fidelity: catalog limits', () => {
  it('looks up more ids than one nodes call takes (250), in several calls', async () => {
    const roses = s.sim.shop.ids.gid('ProductVariant', 'bouquet_roses');
    const unknown = Array.from({ length: 300 }, (_, i) => `gid://shopify/ProductVariant/${i + 1}`);
    const results = await s.adapter.lookup([...unknown, roses]);
    expect(results.map((r) => r.inputs)).toEqual([[{ id: roses, variantId: roses, match: 'exact' }]]);
  });

  it('finds every SKU of a lookup, however many; an archived product is not found by its SKU', async () => {
    const results = await s.adapter.lookup([...SKUS, 'WRT-HOL-50']);
    const found = results.flatMap((r) => r.inputs.map((i) => i.id));
    expect(found.sort()).toEqual([...SKUS].sort());
  });
});

describe('Shopify fidelity: catalog pages', () => {
  it('asks for at most 250 products a page, and browses every product by cursor', async () => {
    const all = await s.adapter.search({ limit: 1000 });
    const titles: string[] = [];
    for (let page = await s.adapter.search({ limit: 3 }); ;) {
      titles.push(...page.products.map((p) => p.title));
      if (!page.nextPageToken) break;
      page = await s.adapter.search({ limit: 3, pageToken: page.nextPageToken });
    }
    expect(titles).toEqual(all.products.map((p) => p.title));
    expect(all.products.length).toBeGreaterThan(3);
  });
});
