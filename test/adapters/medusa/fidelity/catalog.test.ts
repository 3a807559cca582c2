/**
 * The catalog calls on the real Medusa server: a category filter is Medusa's category ids (GET
 * /store/product-categories, names matched here; GET /store/products `category_id` keeps only
 * active, public categories), and the health check is the cheapest Store API read there is.
 */
import { describe, expect, it } from 'vitest';
import { medusaStore } from '../../../helpers/medusa-store.js';
import { adapterFor } from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

suite('catalog calls (real Medusa server)', () => {
  it('searches a category by its name (whatever the case), and an unknown one finds nothing', async () => {
    const adapter = await adapterFor(store!);
    try {
      const books = await adapter.search({ limit: 10, categories: ['books'] });
      expect(books.products.map((p) => p.id)).toEqual([store!.seed.products.ebook_flower_care]);
      expect(await adapter.search({ limit: 10, categories: ['No such category'] })).toEqual({ products: [], totalCount: 0 });
    } finally {
      await adapter.close();
    }
  });

  it('the health check reads one region with the publishable key', async () => {
    const adapter = await adapterFor(store!);
    try {
      await expect(adapter.ping()).resolves.toBeUndefined();
    } finally {
      await adapter.close();
    }
  });
});
