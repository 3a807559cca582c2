import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidPageTokenError, type Adapter } from '../../../adapters/contract.js';
import { catalogGateway, productIds, type Body, type CatalogGateway } from './catalog-gateway.js';

let c: CatalogGateway;
beforeAll(async () => {
  c = await catalogGateway({ tenant: { policies: { allow_loopback_profiles: true, exchange_rates: { EUR: 1.25, JPY: 0.0067 } } } });
});
afterAll(() => c.close());

const search = async (payload: unknown) => {
  const res = await c.call('search_catalog', payload);
  expect(res.status).toBe(200);
  return res.body;
};
const variantIds = (product: Body): string[] => product.variants.map((v: { id: string }) => v.id);

/** Every product of the demo catalog, in catalog order. */
const CATALOG = [
  'bouquet_roses',
  'pot_ceramic',
  'bouquet_sunflowers',
  'bouquet_tulips',
  'orchid_white',
  'gardenias',
  'florist_tee',
  'ebook_flower_care',
  'vase_glass',
  'bouquet_peonies',
  'wreath_holiday',
];

describe('a search needs a query, a filter or an extension input (§4.1)', () => {
  it.each([
    ['nothing', {}],
    ['a blank query', { query: '   ' }],
    ['only context and pagination', { context: { address_country: 'US' }, pagination: { limit: 5 } }],
    ['an empty filters object', { filters: {} }],
    ['an unrecognized top-level member', { vibe: 'romantic' }],
  ])('%s: 400 invalid_request saying what is needed', async (_, payload) => {
    const res = await c.call('search_catalog', payload);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.content).toMatch(/needs a query, a filter or an extension input/);
  });

  it('a filter without a query is a browse in the store order', async () => {
    expect(productIds(await search({ filters: { categories: ['Bouquets'] } }))).toEqual([
      'bouquet_roses',
      'bouquet_sunflowers',
      'bouquet_tulips',
      'bouquet_peonies',
    ]);
  });
});

describe('text relevance', () => {
  it('ranks title matches first', async () => {
    const ids = productIds(await search({ query: 'orchid' }));
    expect(ids[0]).toBe('orchid_white');
    // The pot mentions orchids in its description only.
    expect(ids.slice(1)).toContain('pot_ceramic');
  });

  it('ignores case and accents', async () => {
    expect(productIds(await search({ query: 'NOËL' }))).toEqual(['wreath_holiday']);
    expect(productIds(await search({ query: 'CREME' }))).toEqual(['bouquet_tulips']);
  });

  it('matches every word across title, description, categories, tags and SKU', async () => {
    expect(productIds(await search({ query: 'white orchid' }))).toEqual(['orchid_white']);
    expect(productIds(await search({ query: 'pastel spring' }))).toEqual(['bouquet_tulips']);
    expect(productIds(await search({ query: 'FLW-ROSE-12' }))).toEqual(['bouquet_roses']);
    expect(productIds(await search({ query: 'apparel cotton' }))).toEqual(['florist_tee']);
  });

  it('a word found nowhere gives an empty page, not an error', async () => {
    const body = await search({ query: 'white sunflower' });
    expect(body.products).toEqual([]);
    expect(body.pagination).toEqual({ has_next_page: false, total_count: 0 });
  });
});

describe('filters', () => {
  it('categories are ORed and matched on the category value', async () => {
    expect(productIds(await search({ filters: { categories: ['orchids', 'Vases'] } }))).toEqual(['orchid_white', 'vase_glass']);
    // A taxonomy path is a value too; a taxonomy name is not.
    expect(productIds(await search({ filters: { categories: ['merchant'] } }))).toEqual([]);
  });

  it('price bounds are inclusive minor units, and only variants in range are shown', async () => {
    const body = await search({ filters: { price: { min: 2550, max: 2650 } } });
    expect(productIds(body)).toEqual(['florist_tee']);
    const [tee] = body.products;
    expect(variantIds(tee)).toEqual(['florist_tee_l_green', 'florist_tee_l_white']);
    // The product's own range stays the product's.
    expect(tee.price_range).toEqual({ min: { amount: 2400, currency: 'USD' }, max: { amount: 2600, currency: 'USD' } });
  });

  it('every filter and the query combine with AND', async () => {
    expect(productIds(await search({ query: 'rose', filters: { categories: ['Apparel'] } }))).toEqual(['florist_tee']);
    expect(productIds(await search({ filters: { categories: ['Bouquets'], price: { min: 3000, max: 3500 } } }))).toEqual([
      'bouquet_roses',
      'bouquet_tulips',
    ]);
    expect(productIds(await search({ filters: { categories: ['Plants'], available: true } }))).toEqual(['orchid_white']);
  });

  it("takes the store's declared custom filters, checked against their schema", async () => {
    expect(productIds(await search({ filters: { available: false } }))).toEqual(['gardenias', 'wreath_holiday']);
    const wrong = await c.call('search_catalog', { filters: { available: 'yes' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: 'invalid_request', content: '$.filters.available must be boolean' });
  });

  it('refuses a filter the store does not declare, naming the ones it has', async () => {
    const res = await c.call('search_catalog', { query: 'rose', filters: { color: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body.content).toBe('$.filters.color is not a filter of this store (it supports categories, price, available)');
  });

  it('refuses min above max', async () => {
    const res = await c.call('search_catalog', { filters: { price: { min: 3000, max: 1000 } } });
    expect(res.status).toBe(400);
    expect(res.body.content).toMatch(/min must not be greater than/);
  });
});

describe('price filter currency (§2.6)', () => {
  it('reads bounds in the store currency when context.currency is absent or the same', async () => {
    const absent = await search({ filters: { price: { max: 1500 } } });
    const usd = await search({ filters: { price: { max: 1500 } }, context: { currency: 'USD' } });
    expect(productIds(absent)).toEqual(['pot_ceramic', 'ebook_flower_care']);
    expect(productIds(usd)).toEqual(productIds(absent));
    expect(usd.messages).toBeUndefined();
  });

  it('converts a currency with a configured rate, keeping the boundary inclusive, and says so', async () => {
    // 1 EUR = 1.25 USD: 19.20 EUR is exactly 24.00 USD, the tee's price.
    const body = await search({ filters: { price: { min: 1920, max: 1920 } }, context: { currency: 'EUR' } });
    expect(productIds(body)).toEqual(['florist_tee']);
    expect(body.messages).toEqual([
      {
        type: 'info',
        code: 'currency_converted',
        content: 'filters.price was converted from EUR to USD at 1 EUR = 1.25 USD; prices are shown in USD',
        path: '$.filters.price',
      },
    ]);
    // Prices stay in the store currency.
    expect(body.products[0].variants[0].price).toEqual({ amount: 2400, currency: 'USD' });
  });

  it('converts between currencies of different exponents exactly (JPY has none)', async () => {
    // 1 JPY = 0.0067 USD: 3000 yen = 20.10 USD, so the 20.00 gardenias are in and 25.00 sunflowers are not.
    const body = await search({ filters: { categories: ['Plants', 'Sunflowers'], price: { max: 3000 } }, context: { currency: 'JPY' } });
    expect(productIds(body)).toEqual(['gardenias']);
  });

  it('ignores the price filter with a warning when no rate is configured', async () => {
    const body = await search({ filters: { categories: ['Wreaths'], price: { max: 100 } }, context: { currency: 'GBP' } });
    expect(productIds(body)).toEqual(['wreath_holiday']);
    expect(body.messages).toEqual([
      {
        type: 'warning',
        code: 'filter_ignored',
        content: 'filters.price was not applied: prices are in USD and this store has no rate to convert from GBP',
        path: '$.filters.price',
      },
    ]);
  });
});

describe('pagination (§2.6, §8)', () => {
  const browseAll = { filters: { price: { min: 0 } } };

  it('pages 10 by default and reports the total', async () => {
    const body = await search(browseAll);
    expect(productIds(body)).toEqual(CATALOG.slice(0, 10));
    expect(body.pagination).toMatchObject({ has_next_page: true, total_count: 11 });
    expect(typeof body.pagination.cursor).toBe('string');
  });

  it('walks three pages with the cursor, each product once', async () => {
    const pages: Body[] = [];
    let cursor: string | undefined;
    do {
      const body = await search({ ...browseAll, pagination: { limit: 4, ...(cursor && { cursor }) } });
      pages.push(body);
      cursor = body.pagination.cursor;
    } while (cursor);
    expect(pages.map((p) => productIds(p).length)).toEqual([4, 4, 3]);
    expect(pages.flatMap(productIds)).toEqual(CATALOG);
    expect(pages.map((p) => p.pagination.has_next_page)).toEqual([true, true, false]);
    expect(pages.every((p) => p.pagination.total_count === 11)).toBe(true);
    expect(pages[2].pagination.cursor).toBeUndefined();
  });

  it('serves a larger page than the default up to the tenant maximum', async () => {
    expect(productIds(await search({ ...browseAll, pagination: { limit: 11 } }))).toEqual(CATALOG);
  });

  it('refuses a tampered cursor with 400 invalid_cursor', async () => {
    const { pagination } = await search({ ...browseAll, pagination: { limit: 4 } });
    const [data, signature] = (pagination.cursor as string).split('.') as [string, string];
    const state = JSON.parse(Buffer.from(data, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...state, s: 1 })).toString('base64url');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    for (const cursor of [`${forged}.${signature}`, `${data}.${flip(signature)}`, data, 'not a cursor', `${data}.`]) {
      const res = await c.call('search_catalog', { ...browseAll, pagination: { limit: 4, cursor } });
      expect(res.status, cursor).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
  });

  it('refuses a cursor replayed with another query, filter, currency or limit', async () => {
    const { pagination } = await search({ ...browseAll, pagination: { limit: 4 } });
    const others = [
      { ...browseAll, query: 'rose', pagination: { limit: 4, cursor: pagination.cursor } },
      { filters: { price: { min: 1 } }, pagination: { limit: 4, cursor: pagination.cursor } },
      { ...browseAll, context: { currency: 'EUR' }, pagination: { limit: 4, cursor: pagination.cursor } },
      { ...browseAll, pagination: { limit: 5, cursor: pagination.cursor } },
    ];
    for (const payload of others) {
      const res = await c.call('search_catalog', payload);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'invalid_cursor',
        content:
          '$.pagination.cursor belongs to another search: send the same query, filters, context.currency and limit as the ' +
          'request that returned it',
      });
    }
  });
});

describe("the store's own page tokens", () => {
  it('a token the store no longer accepts is 400 invalid_cursor, not a server error', async () => {
    // A store that expires its tokens (as real backends do) between the two requests.
    const expiring = await catalogGateway({
      wrap: (adapter) => {
        const wrapped: Adapter = Object.create(adapter);
        wrapped.search = (query) => (query.pageToken ? Promise.reject(new InvalidPageTokenError()) : adapter.search(query));
        return wrapped;
      },
    });
    try {
      const first = await expiring.call('search_catalog', { query: 'bouquet', pagination: { limit: 1 } });
      const res = await expiring.call('search_catalog', {
        query: 'bouquet',
        pagination: { limit: 1, cursor: first.body.pagination.cursor },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'invalid_cursor',
        content: '$.pagination.cursor is no longer valid for this search; start again without a cursor',
      });
    } finally {
      await expiring.close();
    }
  });
});

describe('clamping to the tenant page limit', () => {
  it('serves at most search_page_limit products, silently', async () => {
    const small = await catalogGateway({ tenant: { policies: { allow_loopback_profiles: true, search_page_limit: 10 } } });
    try {
      const res = await small.call('search_catalog', { filters: { price: { min: 0 } }, pagination: { limit: 500 } });
      expect(productIds(res.body)).toHaveLength(10);
      expect(res.body.pagination.has_next_page).toBe(true);
      expect(res.body.messages).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});

describe('a context currency the store does not sell in (ZZZ, EUR for a USD store)', () => {
  it.each([
    ['search_catalog', { query: 'roses' }],
    ['lookup_catalog', { ids: ['bouquet_roses'] }],
    ['get_product', { id: 'bouquet_roses' }],
  ] as const)('%s answers in USD with an info message saying so', async (operation, payload) => {
    for (const currency of ['ZZZ', 'EUR']) {
      const res = await c.call(operation, { ...payload, context: { currency } });
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain(`"currency":"${currency}"`);
      expect(res.body.messages).toContainEqual({
        type: 'info',
        code: 'currency_not_supported',
        content: `This store does not sell in ${currency}; prices are in USD.`,
        path: '$.context.currency',
      });
    }
  });
});
