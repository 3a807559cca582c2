/**
 * The WooCommerce catalog as the gateway sees it: variable products with their option matrix
 * ("any" attributes expanded), exact prices, availability from stock settings and extensions,
 * variations read in one call for a whole page and reused, SKU and slug lookups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPageTokenError } from '../../../adapters/contract.js';
import { wooSubject, type WooSubject } from './harness.js';

let subject: WooSubject;
const id = (demoId: string) => String(subject.sim.controls.idOf(demoId));

beforeAll(async () => {
  subject = await wooSubject();
});
afterAll(() => subject?.close());

describe('products', () => {
  it('expands a variation that accepts any message into one variant per message', async () => {
    const [card] = await subject.adapter.lookup([id('greeting_card')]);
    const product = card!.product;
    expect(product.options).toEqual([
      { name: 'Size', values: ['Small', 'Large'] },
      { name: 'Message', values: ['Happy Birthday', 'Thank You', 'With Love'] },
    ]);
    expect(product.variants.map((v) => [v.options.map((o) => o.value).join('/'), v.price.amount])).toEqual([
      ['Small/Happy Birthday', 450],
      ['Small/Thank You', 450],
      ['Small/With Love', 450],
      ['Large/Happy Birthday', 650],
      ['Large/Thank You', 650],
      ['Large/With Love', 650],
    ]);
    expect(product.variants[1]!.id).toBe(`${id('greeting_card_small')}~Thank%20You`);
    const [again] = await subject.adapter.lookup([product.variants[4]!.id]);
    expect(again!.inputs).toEqual([{ id: product.variants[4]!.id, variantId: product.variants[4]!.id, match: 'exact' }]);
  });

  it('keeps the option matrix of the florist tee: a missing combination does not exist, a sold-out one is unavailable', async () => {
    const [tee] = await subject.adapter.lookup([id('florist_tee')]);
    const variants = tee!.product.variants;
    expect(variants).toHaveLength(5);
    expect(variants.find((v) => v.options[0]!.value === 'S' && v.options[1]!.value === 'White')).toBeUndefined();
    expect(variants.find((v) => v.id === id('florist_tee_l_white'))!.availability).toEqual({
      available: false,
      status: 'out_of_stock',
      quantity: 0,
    });
    expect(variants.find((v) => v.id === id('florist_tee_l_green'))!.price).toEqual({ amount: 2600, currency: 'USD' });
    expect(tee!.product.featuredVariantId).toBe(id('florist_tee_m_green'));
  });

  it('reads availability as the store keeps it: backorder, pre-order, discontinued, digital', async () => {
    const found = await subject.adapter.lookup([id('vase_glass'), id('bouquet_peonies'), id('wreath_holiday'), id('ebook_flower_care')]);
    const variant = (demoId: string) => found.find((r) => r.product.id === id(demoId))!.product.variants[0]!;
    expect(variant('vase_glass').availability).toEqual({ available: true, status: 'backorder', quantity: null });
    expect(variant('bouquet_peonies').availability).toEqual({
      available: true,
      status: 'preorder',
      quantity: null,
      availableOn: '2027-05-01',
    });
    expect(variant('wreath_holiday').availability.status).toBe('discontinued');
    expect(variant('ebook_flower_care').requiresShipping).toBe(false);
  });

  it('finds variants by SKU and products by slug', async () => {
    const results = await subject.adapter.lookup(['TEE-M-WHT', 'spring-tulips', 'no-such-sku']);
    const inputs = results.flatMap((r) => r.inputs);
    expect(inputs).toEqual(
      expect.arrayContaining([
        { id: 'TEE-M-WHT', variantId: id('florist_tee_m_white'), match: 'exact' },
        { id: 'spring-tulips', variantId: id('bouquet_tulips'), match: 'featured' },
      ]),
    );
    expect(inputs.find((i) => i.id === 'no-such-sku')).toBeUndefined();
  });
});

describe('search', () => {
  it("filters by category and price in the store, reads the page's variations in one call and then from its cache", async () => {
    const fresh = await wooSubject();
    try {
      const page = await fresh.adapter.search({ categories: ['apparel', 'Cards'], price: { max: 2500, currency: 'USD' }, limit: 10 });
      expect(page.products.map((p) => p.title)).toEqual(['Florist Tee', 'Greeting Card']);
      expect(fresh.sim.controls.calls().filter((c) => c.route === '/wc/v3/variations')).toHaveLength(1);
      fresh.sim.controls.resetCalls();
      await fresh.adapter.search({ text: 'tee', limit: 10 });
      expect(fresh.sim.controls.calls().map((c) => c.route)).toEqual(['/wc/v3/products']);
    } finally {
      await fresh.close();
    }
  });

  it('pages with tokens bound to the query', async () => {
    const first = await subject.adapter.search({ limit: 5 });
    expect(first.totalCount).toBe(subject.sim.store.products.size);
    const second = await subject.adapter.search({ limit: 5, pageToken: first.nextPageToken! });
    expect(second.products[0]!.id).not.toBe(first.products[0]!.id);
    await expect(subject.adapter.search({ limit: 6, pageToken: first.nextPageToken! })).rejects.toBeInstanceOf(InvalidPageTokenError);
    await expect(subject.adapter.search({ limit: 5, pageToken: `${first.nextPageToken!}x` })).rejects.toBeInstanceOf(InvalidPageTokenError);
  });

  it('asks each product for its variations on stores before WooCommerce 10.3', async () => {
    const fresh = await wooSubject({ simulator: { variationsEndpoint: false } });
    try {
      const page = await fresh.adapter.search({ categories: ['Apparel', 'Cards'], limit: 10 });
      expect(page.products.flatMap((p) => p.variants)).toHaveLength(11);
      expect(fresh.sim.controls.calls().filter((c) => /\/products\/\d+\/variations$/.test(c.route))).toHaveLength(2);
    } finally {
      await fresh.close();
    }
  });
});
