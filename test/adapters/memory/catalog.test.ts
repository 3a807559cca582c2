import { describe, expect, it } from 'vitest';
import { InvalidPageTokenError, type SearchQuery } from '../../../adapters/contract.js';
import { demoStore } from './fixtures.js';

const { adapter } = await demoStore();
const ids = async (query: Partial<SearchQuery>) => (await adapter.search({ limit: 50, ...query })).products.map((p) => p.id);

describe('demo store search', () => {
  it('ranks products with the words in the title first, then by where else they match', async () => {
    const found = await ids({ text: 'orchid' });
    expect(found[0]).toBe('orchid_white');
    // The pot mentions orchids in its description only.
    expect(found).toContain('pot_ceramic');
    expect(found.indexOf('pot_ceramic')).toBeGreaterThan(0);
  });

  it('ignores case and accents, and accepts plurals either way', async () => {
    expect(await ids({ text: 'NOËL' })).toEqual(['wreath_holiday']);
    expect(await ids({ text: 'creme' })).toEqual(['bouquet_tulips']);
    expect((await ids({ text: 'Orchids' }))[0]).toBe('orchid_white');
    expect((await ids({ text: 'sunflower' }))[0]).toBe('bouquet_sunflowers');
  });

  it('requires every word to match somewhere across title, categories, tags, SKU and description', async () => {
    expect(await ids({ text: 'white orchid' })).toEqual(['orchid_white']);
    expect(await ids({ text: 'white sunflower' })).toEqual([]);
    expect(await ids({ text: 'pastel spring' })).toEqual(['bouquet_tulips']);
    expect(await ids({ text: 'tee-m-wht' })).toEqual(['florist_tee']);
    expect(await ids({ text: 'FLW-ROSE-12' })).toEqual(['bouquet_roses']);
  });

  it('browses in catalog order without text', async () => {
    expect((await ids({})).slice(0, 3)).toEqual(['bouquet_roses', 'pot_ceramic', 'bouquet_sunflowers']);
  });

  it('filters by category value (OR), price range in cents and availability, all ANDed', async () => {
    expect(await ids({ categories: ['orchids', 'Vases'] })).toEqual(['orchid_white', 'vase_glass']);
    expect(await ids({ categories: ['Bouquets'], price: { min: 3000, max: 3500, currency: 'USD' } })).toEqual([
      'bouquet_roses',
      'bouquet_tulips',
    ]);
    // The tee has variants at 2400 and 2600: one in range is enough.
    expect(await ids({ price: { min: 2550, max: 2650, currency: 'USD' } })).toEqual(['florist_tee']);
    expect(await ids({ categories: ['Plants'], custom: { available: true } })).toEqual(['orchid_white']);
    expect(await ids({ custom: { available: false } })).toEqual(['gardenias', 'wreath_holiday']);
    expect(await ids({ text: 'rose', categories: ['Apparel'] })).toEqual(['florist_tee']);
  });

  it('pages with an opaque token and reports the total', async () => {
    const first = await adapter.search({ categories: ['Bouquets'], limit: 2 });
    expect(first.totalCount).toBe(4);
    expect(first.products.map((p) => p.id)).toEqual(['bouquet_roses', 'bouquet_sunflowers']);
    const second = await adapter.search({ categories: ['Bouquets'], limit: 2, pageToken: first.nextPageToken! });
    expect(second.products.map((p) => p.id)).toEqual(['bouquet_tulips', 'bouquet_peonies']);
    expect(second.nextPageToken).toBeUndefined();
  });

  it('refuses a page token of another query or a forged one', async () => {
    const first = await adapter.search({ categories: ['Bouquets'], limit: 2 });
    await expect(adapter.search({ categories: ['Plants'], limit: 2, pageToken: first.nextPageToken! })).rejects.toBeInstanceOf(
      InvalidPageTokenError,
    );
    await expect(adapter.search({ limit: 2, pageToken: 'bm9wZQ' })).rejects.toBeInstanceOf(InvalidPageTokenError);
  });

  it('returns each product with every variant and its option axes', async () => {
    const [tee] = (await adapter.search({ text: 'florist tee', limit: 1 })).products;
    expect(tee!.options).toEqual([
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Color', values: ['Green', 'White'] },
    ]);
    expect(tee!.featuredVariantId).toBe('florist_tee_m_green');
    // S / White does not exist; L / White exists without stock.
    expect(tee!.variants.some((v) => v.title === 'S / White')).toBe(false);
    expect(tee!.variants.find((v) => v.title === 'L / White')!.availability).toEqual({
      available: false,
      status: 'out_of_stock',
      quantity: 0,
    });
    expect(tee!.vendor?.name).toBe('Bloom & Thread Apparel');
  });
});

describe('demo store lookup', () => {
  it('resolves product ids to the featured variant and variant ids exactly', async () => {
    const results = await adapter.lookup(['florist_tee', 'florist_tee_l_white']);
    expect(results).toHaveLength(1);
    expect(results[0]!.inputs).toEqual([
      { id: 'florist_tee', variantId: 'florist_tee_m_green', match: 'featured' },
      { id: 'florist_tee_l_white', variantId: 'florist_tee_l_white', match: 'exact' },
    ]);
  });

  it('resolves SKUs (any case) and handles, declared as lookup keys', async () => {
    expect(adapter.capabilities.lookupKeys).toEqual(['sku', 'handle']);
    const results = await adapter.lookup(['tee-s-grn', 'white-orchid']);
    expect(results.map((r) => r.product.id)).toEqual(['florist_tee', 'orchid_white']);
    expect(results[0]!.inputs).toEqual([{ id: 'tee-s-grn', variantId: 'florist_tee_s_green', match: 'exact' }]);
    expect(results[1]!.inputs).toEqual([{ id: 'white-orchid', variantId: 'orchid_white', match: 'featured' }]);
  });

  it('skips unknown ids and deduplicates repeated ones', async () => {
    const results = await adapter.lookup(['nope', 'bouquet_roses', 'bouquet_roses']);
    expect(results).toHaveLength(1);
    expect(results[0]!.inputs).toEqual([{ id: 'bouquet_roses', variantId: 'bouquet_roses', match: 'exact' }]);
    expect(await adapter.lookup(['nope'])).toEqual([]);
  });

  it('reports every availability status and per-location stock', async () => {
    const status = async (id: string) => (await adapter.lookup([id]))[0]!.product.variants[0]!.availability;
    expect(await status('vase_glass')).toEqual({ available: true, status: 'backorder', quantity: null });
    expect(await status('bouquet_peonies')).toEqual({ available: true, status: 'preorder', quantity: null, availableOn: '2027-05-01' });
    expect(await status('wreath_holiday')).toEqual({ available: false, status: 'discontinued', quantity: 0 });
    expect(await status('gardenias')).toEqual({ available: false, status: 'out_of_stock', quantity: 0 });
    const [roses] = await adapter.lookup(['bouquet_roses']);
    expect(roses!.product.variants[0]!.locationStock).toEqual([
      { locationId: 'loop', quantity: 24 },
      { locationId: 'evanston', quantity: 6 },
    ]);
    const [ebook] = await adapter.lookup(['ebook_flower_care']);
    expect(ebook!.product.variants[0]!.requiresShipping).toBe(false);
  });

  it('builds a cart permalink that recreates the purchase with the accepted codes and carries the reference', async () => {
    const quote = {
      lines: [
        { lineId: 'l1', variantId: 'bouquet_roses', quantity: 2 },
        { lineId: 'l2', variantId: 'florist_tee_m_green', quantity: 1 },
      ],
      discountCodes: ['10OFF', 'NOPE'],
    };
    expect(await adapter.checkoutUrl({ reference: 'chk_1', quote })).toEqual({
      url: 'https://flowers.example/store/cart/bouquet_roses:2,florist_tee_m_green:1?discount=10OFF&ref=chk_1',
    });
  });
});
