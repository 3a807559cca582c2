import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogGateway, productIds, type Body, type CatalogGateway } from './catalog-gateway.js';

let c: CatalogGateway;
beforeAll(async () => {
  c = await catalogGateway({ tenant: { policies: { allow_loopback_profiles: true, lookup_batch_limit: 10 } } });
});
afterAll(() => c.close());

const lookup = async (payload: unknown) => {
  const res = await c.call('lookup_catalog', payload);
  expect(res.status).toBe(200);
  return res.body;
};

/** variant id -> its inputs, over every product of the body. */
const inputsByVariant = (body: Body): Record<string, unknown> =>
  Object.fromEntries(body.products.flatMap((p: Body) => p.variants.map((v: Body) => [v.id, v.inputs])));

describe('lookup_catalog rules (§4.1)', () => {
  it('1: resolves product ids and variant ids, and the SKU and handle the store declares', async () => {
    const body = await lookup({ ids: ['bouquet_roses', 'florist_tee_l_white', 'TEE-S-GRN', 'white-orchid'] });
    expect(productIds(body).sort()).toEqual(['bouquet_roses', 'florist_tee', 'orchid_white']);
    expect(inputsByVariant(body)).toEqual({
      bouquet_roses: [{ id: 'bouquet_roses', match: 'exact' }],
      florist_tee_s_green: [{ id: 'TEE-S-GRN', match: 'exact' }],
      florist_tee_l_white: [{ id: 'florist_tee_l_white', match: 'exact' }],
      // A handle names the product, so its one variant is the representative.
      orchid_white: [{ id: 'white-orchid', match: 'featured' }],
    });
  });

  it('2: deduplicates ids, and a product reached by several ids appears once', async () => {
    const body = await lookup({ ids: ['florist_tee', 'florist_tee', 'florist-tee', 'florist_tee_l_white'] });
    expect(productIds(body)).toEqual(['florist_tee']);
    expect(inputsByVariant(body)).toEqual({
      florist_tee_m_green: [
        { id: 'florist_tee', match: 'featured' },
        { id: 'florist-tee', match: 'featured' },
      ],
      florist_tee_l_white: [{ id: 'florist_tee_l_white', match: 'exact' }],
    });
  });

  it('3: every variant shown carries inputs; variants no id reached are not shown', async () => {
    const body = await lookup({ ids: ['florist_tee_m_white'] });
    const [tee] = body.products;
    expect(tee.variants.map((v: Body) => v.id)).toEqual(['florist_tee_m_white']);
    expect(tee.variants[0].inputs).toEqual([{ id: 'florist_tee_m_white', match: 'exact' }]);
    // The product keeps its full option matrix even though one variant is shown.
    expect(tee.options.map((o: Body) => o.values.map((v: Body) => v.label))).toEqual([
      ['S', 'M', 'L'],
      ['Green', 'White'],
    ]);
  });

  it("4: a product id is matched `featured` on the store's representative variant", async () => {
    const body = await lookup({ ids: ['florist_tee'] });
    expect(inputsByVariant(body)).toEqual({ florist_tee_m_green: [{ id: 'florist_tee', match: 'featured' }] });
  });

  it('5: filters apply after resolution; a product with no variant left is excluded', async () => {
    const body = await lookup({ ids: ['florist_tee_l_white', 'bouquet_roses', 'pot_ceramic'], filters: { price: { max: 2500 } } });
    expect(productIds(body)).toEqual(['pot_ceramic']);
    // The ids resolved: they are filtered out, not unknown.
    expect(body.messages).toBeUndefined();
    expect(productIds(await lookup({ ids: ['bouquet_roses', 'pot_ceramic'], filters: { categories: ['pots'] } }))).toEqual(['pot_ceramic']);
  });

  it('5: when the featured variant fails the filters, another variant represents the product', async () => {
    // The featured M / Green costs 24.00; from 25.00 up only the L variants remain, the buyable one first.
    const body = await lookup({ ids: ['florist_tee'], filters: { price: { min: 2500 } } });
    expect(inputsByVariant(body)).toEqual({ florist_tee_l_green: [{ id: 'florist_tee', match: 'featured' }] });
  });

  it('6: unknown ids give 200 with an info not_found message whose content is the id', async () => {
    const body = await lookup({ ids: ['bouquet_roses', 'no-such-thing', 'gid://shop/Product/9'] });
    expect(productIds(body)).toEqual(['bouquet_roses']);
    expect(body.messages).toEqual([
      { type: 'info', code: 'not_found', content: 'no-such-thing', path: '$.ids[1]' },
      { type: 'info', code: 'not_found', content: 'gid://shop/Product/9', path: '$.ids[2]' },
    ]);
    expect(body.proto.status).toBe('success');
  });

  it('6: when every id fails, products is an empty array', async () => {
    const body = await lookup({ ids: ['nope', 'nope', 'nada'] });
    expect(body.products).toEqual([]);
    expect(body.messages.map((m: Body) => m.content)).toEqual(['nope', 'nada']);
  });

  it('custom search filters do not narrow a lookup, and a warning says so', async () => {
    const body = await lookup({ ids: ['gardenias'], filters: { available: true } });
    expect(productIds(body)).toEqual(['gardenias']);
    expect(body.messages).toEqual([
      {
        type: 'warning',
        code: 'filter_ignored',
        content: 'filters.available only narrows search_catalog; it was not applied here',
        path: '$.filters.available',
      },
    ]);
  });
});

describe('batch limit (§8)', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`);

  it('accepts the tenant limit of distinct ids, duplicates not counted', async () => {
    expect((await c.call('lookup_catalog', { ids: ids(10) })).status).toBe(200);
    expect((await c.call('lookup_catalog', { ids: [...ids(10), ...ids(10)] })).status).toBe(200);
  });

  it('refuses more with 400 request_too_large, -32602 on MCP', async () => {
    const res = await c.call('lookup_catalog', { ids: ids(11) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'request_too_large',
      content: '$.ids has 11 distinct ids; this store looks up at most 10 per request: split the batch',
    });
    const mcp = await c.mcp('lookup_catalog', { meta: c.gw.meta(), catalog: { ids: ids(5000) } });
    expect(mcp.error).toMatchObject({ code: -32602, data: { code: 'request_too_large', http_status: 400 } });
  });
});
