import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogGateway, type Body, type CatalogGateway } from './catalog-gateway.js';

let c: CatalogGateway;
beforeAll(async () => {
  c = await catalogGateway();
});
afterAll(() => c.close());

const getProduct = async (payload: unknown) => {
  const res = await c.call('get_product', payload);
  expect(res.status).toBe(200);
  return res.body;
};
const variantIds = (body: Body): string[] => body.product.variants.map((v: { id: string }) => v.id);
const sel = (size: string, color: string) => [
  { name: 'Size', label: size },
  { name: 'Color', label: color },
];
/** option name -> label -> "available/exists" */
const matrix = (body: Body) =>
  Object.fromEntries(
    body.product.options.map((o: Body) => [o.name, Object.fromEntries(o.values.map((v: Body) => [v.label, `${v.available}/${v.exists}`]))]),
  );

describe('get_product rules (§4.1)', () => {
  it('1: a product id shows the featured variant, selected on its options by default', async () => {
    const body = await getProduct({ id: 'florist_tee' });
    expect(variantIds(body)).toEqual(['florist_tee_m_green']);
    expect(body.product.selected).toEqual(sel('M', 'Green'));
  });

  it('1: with a selection, the variants matching it (buyable first), then the featured one', async () => {
    const body = await getProduct({ id: 'florist_tee', selected: [{ name: 'Color', label: 'White' }] });
    expect(body.product.selected).toEqual([{ name: 'Color', label: 'White' }]);
    expect(variantIds(body)).toEqual(['florist_tee_m_white', 'florist_tee_l_white', 'florist_tee_m_green']);
  });

  it('2: a variant id comes first and its options are the selection', async () => {
    const body = await getProduct({ id: 'florist_tee_l_green' });
    expect(variantIds(body)[0]).toBe('florist_tee_l_green');
    expect(body.product.selected).toEqual(sel('L', 'Green'));
  });

  it("2: a conflicting `selected` is ignored: the variant's options win", async () => {
    const body = await getProduct({ id: 'florist_tee_l_green', selected: sel('S', 'White') });
    expect(variantIds(body)).toEqual(['florist_tee_l_green', 'florist_tee_m_green']);
    expect(body.product.selected).toEqual(sel('L', 'Green'));
  });

  it('2: a SKU is a variant id too', async () => {
    const body = await getProduct({ id: 'TEE-M-WHT' });
    expect(variantIds(body)[0]).toBe('florist_tee_m_white');
    expect(body.product.selected).toEqual(sel('M', 'White'));
  });

  it('3: selected is present for products with options, absent for simple ones', async () => {
    expect((await getProduct({ id: 'florist_tee' })).product.selected).toHaveLength(2);
    const roses = await getProduct({ id: 'bouquet_roses' });
    expect(roses.product.selected).toBeUndefined();
    expect(roses.product.options).toEqual([]);
    expect(variantIds(roses)).toEqual(['bouquet_roses']);
  });

  it('4: relaxation drops options from the end of preferences', async () => {
    // S / White does not exist.
    const colorFirst = await getProduct({ id: 'florist_tee', selected: sel('S', 'White'), preferences: ['Color', 'Size'] });
    expect(colorFirst.product.selected).toEqual([{ name: 'Color', label: 'White' }]);
    const sizeFirst = await getProduct({ id: 'florist_tee', selected: sel('S', 'White'), preferences: ['Size', 'Color'] });
    expect(sizeFirst.product.selected).toEqual([{ name: 'Size', label: 'S' }]);
    expect(variantIds(sizeFirst)).toEqual(['florist_tee_s_green', 'florist_tee_m_green']);
  });

  it('4: options left out of preferences are dropped before any preference', async () => {
    const body = await getProduct({ id: 'florist_tee', selected: sel('S', 'White'), preferences: ['Size'] });
    expect(body.product.selected).toEqual([{ name: 'Size', label: 'S' }]);
  });

  it('4: without preferences the last selection is dropped first', async () => {
    const sizeThenColor = await getProduct({ id: 'florist_tee', selected: sel('S', 'White') });
    expect(sizeThenColor.product.selected).toEqual([{ name: 'Size', label: 'S' }]);
    const colorThenSize = await getProduct({ id: 'florist_tee', selected: [...sel('S', 'White')].reverse() });
    expect(colorThenSize.product.selected).toEqual([{ name: 'Color', label: 'White' }]);
  });

  it('4: a client detects relaxation as a strict subset of its selection, and none when it exists', async () => {
    const isStrictSubset = (response: Body[], request: Body[]) =>
      response.length < request.length && response.every((r) => request.some((q) => q.name === r.name && q.label === r.label));
    const relaxed = await getProduct({ id: 'florist_tee', selected: sel('S', 'White') });
    expect(isStrictSubset(relaxed.product.selected, sel('S', 'White'))).toBe(true);
    // L / White exists (out of stock): no relaxation, the selection comes back whole.
    const kept = await getProduct({ id: 'florist_tee', selected: sel('L', 'White') });
    expect(kept.product.selected).toEqual(sel('L', 'White'));
    expect(variantIds(kept)[0]).toBe('florist_tee_l_white');
    expect(kept.product.variants[0].availability).toEqual({ available: false, status: 'out_of_stock' });
  });

  it('4: selections are matched without regard to case; unknown options and values are relaxed away', async () => {
    const body = await getProduct({
      id: 'florist_tee',
      selected: [
        { name: 'size', label: 'l' },
        { name: 'COLOR', label: 'green' },
      ],
    });
    expect(body.product.selected).toEqual(sel('L', 'Green'));
    const unknown = await getProduct({
      id: 'florist_tee',
      selected: [
        { name: 'Size', label: 'XXL' },
        { name: 'Color', label: 'Green' },
        { name: 'Fabric', label: 'Silk' },
      ],
    });
    expect(unknown.product.selected).toEqual([{ name: 'Color', label: 'Green' }]);
  });

  it('5: every option value carries available and exists relative to the selection (the three-row matrix of §3)', async () => {
    const body = await getProduct({ id: 'florist_tee_l_white' });
    expect(matrix(body)).toEqual({
      // Next to White: S has no variant, M is in stock, L exists without stock.
      Size: { S: 'false/false', M: 'true/true', L: 'false/true' },
      // Next to L: Green is in stock, White exists without stock.
      Color: { Green: 'true/true', White: 'false/true' },
    });
    expect(matrix(await getProduct({ id: 'florist_tee' }))).toEqual({
      Size: { S: 'true/true', M: 'true/true', L: 'true/true' },
      Color: { Green: 'true/true', White: 'true/true' },
    });
  });

  it('6: an unknown id is HTTP 200 with proto.status error and an unrecoverable not_found', async () => {
    const body = await getProduct({ id: 'no-such-product' });
    expect(body.proto.status).toBe('error');
    expect(body.product).toBeUndefined();
    expect(body.messages).toEqual([
      {
        type: 'error',
        code: 'not_found',
        severity: 'unrecoverable',
        content: 'No product or variant has the id "no-such-product".',
        path: '$.id',
      },
    ]);
    const mcp = await c.mcp('get_product', { meta: c.gw.meta(), catalog: { id: 'no-such-product' } });
    expect(mcp.result.isError).toBeUndefined();
    expect(mcp.result.content[0].text).toBe('No product or variant has the id "no-such-product".');
  });
});

describe('get_product filters and shapes', () => {
  it('filters remove variants; a product left with none is not_found', async () => {
    const cheap = await getProduct({ id: 'florist_tee', selected: [{ name: 'Color', label: 'Green' }], filters: { price: { max: 2400 } } });
    expect(variantIds(cheap)).toEqual(['florist_tee_s_green', 'florist_tee_m_green']);
    const none = await getProduct({ id: 'florist_tee', filters: { price: { max: 1000 } } });
    expect(none.proto.status).toBe('error');
    expect(none.messages[0]).toMatchObject({ code: 'not_found', severity: 'unrecoverable', path: '$.filters' });
  });

  it('refuses an option selected twice', async () => {
    const res = await c.call('get_product', {
      id: 'florist_tee',
      selected: [
        { name: 'Size', label: 'S' },
        { name: 'size', label: 'M' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.content).toBe('$.selected[1].name repeats "size": select each option at most once');
  });

  it('gives the §2.6 product shape: price range, media, rating, seller, tags, minor units', async () => {
    const { product } = await getProduct({ id: 'florist_tee' });
    expect(product).toMatchObject({
      id: 'florist_tee',
      handle: 'florist-tee',
      title: 'Florist Tee',
      description: { plain: expect.stringContaining('organic cotton') },
      url: 'https://flowers.example/store/products/florist-tee',
      categories: expect.arrayContaining([{ value: 'Apparel', taxonomy: 'merchant' }]),
      price_range: { min: { amount: 2400, currency: 'USD' }, max: { amount: 2600, currency: 'USD' } },
      media: [
        { type: 'image', url: 'https://flowers.example/store/images/florist-tee.svg', alt_text: 'The Florist Tee in green and in white' },
        { type: 'image', url: 'https://flowers.example/store/images/florist-tee-white.svg', alt_text: 'The Florist Tee in white' },
      ],
      rating: { value: 4.4, scale_max: 5, count: 37 },
    });
    expect(product.variants[0]).toMatchObject({
      id: 'florist_tee_m_green',
      sku: 'TEE-M-GRN',
      title: 'M / Green',
      price: { amount: 2400, currency: 'USD' },
      availability: { available: true, status: 'in_stock' },
      options: sel('M', 'Green'),
      tags: ['apparel', 't-shirt', 'cotton', 'merch'],
      seller: {
        name: 'Bloom & Thread Apparel',
        links: [{ type: 'website', url: 'https://flowers.example/store/sellers/bloom-and-thread' }],
      },
    });
  });

  it('reports each availability status the store knows', async () => {
    const status = async (id: string) => (await getProduct({ id })).product.variants[0].availability;
    expect(await status('vase_glass')).toEqual({ available: true, status: 'backorder' });
    expect(await status('bouquet_peonies')).toEqual({ available: true, status: 'preorder' });
    expect(await status('gardenias')).toEqual({ available: false, status: 'out_of_stock' });
    expect(await status('wreath_holiday')).toEqual({ available: false, status: 'discontinued' });
  });
});
