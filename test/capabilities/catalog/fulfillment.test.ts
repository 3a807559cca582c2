import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/contract.js';
import { catalogGateway, NO_FULFILLMENT, productIds, type Body, type CatalogGateway } from './catalog-gateway.js';

let c: CatalogGateway;
beforeAll(async () => {
  c = await catalogGateway();
});
afterAll(() => c.close());

const ok = async (op: 'search_catalog' | 'lookup_catalog' | 'get_product', payload: unknown) => {
  const res = await c.call(op, payload);
  expect(res.status).toBe(200);
  return res.body;
};
/** The fulfillment of the first variant of the product `id` in a body. */
const fulfillmentOf = (body: Body, id: string) => body.products.find((p: Body) => p.id === id).variants[0].fulfillment;
const method = (fulfillment: Body, type: string) => fulfillment.methods.find((m: Body) => m.type === type);

describe('only for callers that negotiated the fulfillment extension', () => {
  it('reports no fulfillment to a caller without it', async () => {
    const res = await c.call('lookup_catalog', { ids: ['bouquet_roses'] }, { profile: NO_FULFILLMENT });
    expect(res.status).toBe(200);
    expect(res.body.products[0].variants[0].fulfillment).toBeUndefined();
    expect(res.body.proto.capabilities['dev.proto.shopping.fulfillment']).toBeUndefined();
  });

  it('refuses fulfillment filters from such a caller, naming the extension', async () => {
    const res = await c.call(
      'search_catalog',
      { query: 'roses', filters: { fulfills_to: { address_country: 'US' } } },
      { profile: NO_FULFILLMENT },
    );
    expect(res.status).toBe(400);
    expect(res.body.content).toMatch(
      /^\$\.filters\.fulfills_to belongs to the fulfillment extension \(dev\.proto\.shopping\.fulfillment\)/,
    );
  });

  it('refuses them, saying so, where the store does not offer the extension', async () => {
    const capabilities = { 'dev.proto.shopping.catalog.search': {}, 'dev.proto.shopping.catalog.lookup': {} };
    const plain = await catalogGateway({ tenant: { capabilities } });
    try {
      const res = await plain.call('search_catalog', { filters: { methods: ['pickup'] } });
      expect(res.status).toBe(400);
      expect(res.body.content).toBe(
        '$.filters.methods belongs to the fulfillment extension (dev.proto.shopping.fulfillment), which this store does not offer',
      );
    } finally {
      await plain.close();
    }
  });

  it('a store that cannot tell fulfillment per product reports none and says its filters were not applied', async () => {
    const blind = await catalogGateway({
      wrap: (adapter) =>
        Object.assign(Object.create(adapter) as Adapter, { capabilities: { ...adapter.capabilities, fulfillmentDiscovery: false } }),
    });
    try {
      const res = await blind.call('search_catalog', { filters: { categories: ['Bouquets'], fulfills_to: { address_country: 'FR' } } });
      expect(productIds(res.body)).toEqual(['bouquet_roses', 'bouquet_sunflowers', 'bouquet_tulips', 'bouquet_peonies']);
      expect(res.body.products[0].variants[0].fulfillment).toBeUndefined();
      expect(res.body.messages).toEqual([
        {
          type: 'warning',
          code: 'filter_ignored',
          content: 'this store cannot tell fulfillment per product, so filters.fulfills_to and filters.methods were not applied',
          path: '$.filters',
        },
      ]);
    } finally {
      await blind.close();
    }
  });

  it('reports every method per variant to a caller with it', async () => {
    const f = fulfillmentOf(await ok('lookup_catalog', { ids: ['bouquet_roses'] }), 'bouquet_roses');
    expect(f.methods.map((m: Body) => m.type)).toEqual(['shipping', 'pickup']);
  });
});

describe('per-method availability, location and representative options (§2.8, §4.5 item 6)', () => {
  it('ships to an address with the cheapest and the fastest option, price first in the description', async () => {
    const f = fulfillmentOf(
      await ok('lookup_catalog', { ids: ['bouquet_roses'], filters: { fulfills_to: { address_country: 'CA' } } }),
      'bouquet_roses',
    );
    expect(method(f, 'shipping')).toEqual({
      type: 'shipping',
      description: { plain: 'Ships from Petal & Stem florist to CA.' },
      availability: { available: true, status: 'in_stock' },
      options: [
        {
          id: 'ca-std',
          title: 'Standard Shipping (Canada)',
          description: { plain: '$9.00 · Delivered by Canada Post in 4-8 days after dispatch' },
        },
        {
          id: 'ca-exp',
          title: 'Express Shipping (Canada)',
          description: { plain: '$22.00 · Delivered by Purolator in 2-3 days after dispatch' },
        },
      ],
    });
    // No pickup location in Canada.
    expect(method(f, 'pickup')).toBeUndefined();
  });

  it("a method's availability is its own, not the variant's", async () => {
    // In stock overall, but the florist does not ship to France.
    const body = await ok('lookup_catalog', { ids: ['bouquet_roses'], context: { address_country: 'FR' } });
    const [variant] = body.products[0].variants;
    expect(variant.availability).toEqual({ available: true, status: 'in_stock' });
    expect(method(variant.fulfillment, 'shipping')).toMatchObject({
      availability: { available: false },
      description: { plain: 'Petal & Stem florist does not ship to FR.' },
    });
  });

  it('names the pickup location of the answer; a location in fulfills_to wins over an address beside it', async () => {
    const body = await ok('lookup_catalog', {
      ids: ['bouquet_roses'],
      filters: { fulfills_to: { location: 'evanston', address_country: 'CA' } },
    });
    const pickup = method(fulfillmentOf(body, 'bouquet_roses'), 'pickup');
    expect(pickup).toEqual({
      type: 'pickup',
      description: { plain: 'Free pickup at Petal & Stem Evanston Shop.' },
      availability: { available: true, status: 'in_stock' },
      location: 'evanston',
      options: [
        { id: 'pickup-evanston', title: 'Pick up at Petal & Stem Evanston Shop', description: { plain: 'Free · Ready within 4 hours' } },
      ],
    });
    // Shipping is judged for the location's own area (Illinois), not Canada.
    expect(method(fulfillmentOf(body, 'bouquet_roses'), 'shipping').description.plain).toBe('Ships from Petal & Stem florist to US.');
  });

  it('fulfills_to supersedes context', async () => {
    const body = await ok('lookup_catalog', {
      ids: ['bouquet_roses'],
      context: { address_country: 'FR' },
      filters: { fulfills_to: { address_country: 'US' } },
    });
    expect(method(fulfillmentOf(body, 'bouquet_roses'), 'shipping').availability.available).toBe(true);
  });

  it('tolerates alpha-3 codes and country names, and refuses what names no country', async () => {
    const answer = async (country: string) =>
      method(
        fulfillmentOf(
          await ok('lookup_catalog', { ids: ['bouquet_roses'], filters: { fulfills_to: { address_country: country } } }),
          'bouquet_roses',
        ),
        'shipping',
      );
    const alpha2 = await answer('CA');
    expect(await answer('CAN')).toEqual(alpha2);
    expect(await answer('canada')).toEqual(alpha2);
    const res = await c.call('lookup_catalog', { ids: ['bouquet_roses'], filters: { fulfills_to: { address_country: 'Narnia' } } });
    expect(res.status).toBe(400);
    expect(res.body.content).toMatch(/^\$\.filters\.fulfills_to\.address_country "Narnia" is not a country/);
  });

  it('refuses a location the store does not have, listing its locations', async () => {
    const res = await c.call('search_catalog', { query: 'roses', filters: { fulfills_to: { location: 'mars' } } });
    expect(res.status).toBe(400);
    expect(res.body.content).toBe('$.filters.fulfills_to.location "mars" is not a pickup location of this store (known: loop, evanston)');
  });

  it('digital goods need no method', async () => {
    expect(fulfillmentOf(await ok('lookup_catalog', { ids: ['ebook_flower_care'] }), 'ebook_flower_care')).toEqual({ methods: [] });
  });
});

describe('fulfillment filters', () => {
  it('fulfills_to keeps products a method can bring there; context alone does not filter', async () => {
    const france = await ok('search_catalog', {
      filters: { categories: ['Bouquets', 'Pots', 'Books'], fulfills_to: { address_country: 'FR' } },
    });
    // Fresh flowers stay in North America; the pot ships from the warehouse; the e-book needs no shipping.
    expect(productIds(france)).toEqual(['pot_ceramic', 'ebook_flower_care']);
    const hint = await ok('search_catalog', { filters: { categories: ['Bouquets', 'Pots', 'Books'] }, context: { address_country: 'FR' } });
    expect(productIds(hint)).toHaveLength(6);
  });

  it('methods keeps only those methods, and variants that have one available', async () => {
    const body = await ok('search_catalog', { filters: { price: { min: 0 }, methods: ['pickup'], fulfills_to: { location: 'evanston' } } });
    // Stocked at Evanston, plus the peonies (untracked stock, available everywhere); not the digital e-book.
    expect(productIds(body)).toEqual(['bouquet_roses', 'pot_ceramic', 'orchid_white', 'bouquet_peonies']);
    for (const product of body.products) {
      expect(product.variants[0].fulfillment.methods.map((m: Body) => [m.type, m.location])).toEqual([['pickup', 'evanston']]);
    }
    expect(productIds(await ok('search_catalog', { query: 'ebook', filters: { methods: ['drone'] } }))).toEqual([]);
  });

  it('screens the variants of a product one by one', async () => {
    // At the Loop Studio only the M tees are stocked.
    const body = await ok('search_catalog', { query: 'tee', filters: { methods: ['pickup'], fulfills_to: { location: 'loop' } } });
    expect(body.products[0].variants.map((v: Body) => v.id)).toEqual(['florist_tee_m_green', 'florist_tee_m_white']);
  });

  it('apply to lookups after resolution and to get_product', async () => {
    const lookup = await ok('lookup_catalog', {
      ids: ['bouquet_roses', 'pot_ceramic'],
      filters: { fulfills_to: { address_country: 'FR' } },
    });
    expect(productIds(lookup)).toEqual(['pot_ceramic']);
    const none = await ok('get_product', { id: 'florist_tee', filters: { methods: ['pickup'], fulfills_to: { location: 'evanston' } } });
    expect(none.proto.status).toBe('error');
    expect(none.messages[0].code).toBe('not_found');
  });

  it('pages stay full and gapless when the filter drops products: total_count is then left out', async () => {
    const payload = { filters: { price: { min: 0 }, fulfills_to: { address_country: 'FR' } } };
    const first = await ok('search_catalog', { ...payload, pagination: { limit: 3 } });
    expect(productIds(first)).toEqual(['pot_ceramic', 'florist_tee', 'ebook_flower_care']);
    expect(first.pagination.has_next_page).toBe(true);
    expect(first.pagination.total_count).toBeUndefined();
    const second = await ok('search_catalog', { ...payload, pagination: { limit: 3, cursor: first.pagination.cursor } });
    expect(productIds(second)).toEqual(['vase_glass']);
    expect(second.pagination).toEqual({ has_next_page: false });
  });
});
