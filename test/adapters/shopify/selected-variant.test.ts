/**
 * A product with more variants than one Storefront page (Shopify allows 2048; `variants(first:)`
 * stops at 250): product detail with a selection gets the selected variant through
 * `variantBySelectedOptions`, in the adapter and through the gateway's get_product.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGateway, type TestGateway } from '../../helpers/gateway.js';
import { shopifySetup, type ShopifySetup } from './helpers.js';

const SIZES = ['S', 'M', 'L', 'XL'];
const FLOWERS = ['Rose', 'Tulip', 'Lily', 'Peony', 'Daisy', 'Iris', 'Aster', 'Dahlia', 'Orchid', 'Poppy'];
const WRAPS = ['Kraft', 'Linen', 'Silk', 'Jute', 'Tissue', 'Cotton', 'Burlap', 'Velvet'];

/** The demo shop plus a bouquet builder of 4 x 10 x 8 = 320 variants (the last in the catalog). */
function shopWithLargeProduct(dir: string): void {
  cpSync(join(process.cwd(), 'config/demo'), dir, { recursive: true });
  const variants = SIZES.flatMap((size) =>
    FLOWERS.flatMap((flower) =>
      WRAPS.map(
        (wrap) =>
          `      - { id: builder_${size}_${flower}_${wrap}, price: 3000, stock: 5, ` +
          `options: { Size: ${size}, Flower: ${flower}, Wrap: ${wrap} } }`,
      ),
    ),
  );
  appendFileSync(
    join(dir, 'catalog.yaml'),
    [
      '',
      '  - id: bouquet_builder',
      '    handle: bouquet-builder',
      '    title: Bouquet Builder',
      '    image: { url: https://example.com/builder.jpg, alt: A bouquet of your choice }',
      '    description: Choose the size, the flower and the wrap.',
      '    categories:',
      '      - { value: Bouquets, taxonomy: merchant }',
      '    tags: [custom]',
      '    ships_from: florist',
      '    options:',
      `      - { name: Size, values: [${SIZES.join(', ')}] }`,
      `      - { name: Flower, values: [${FLOWERS.join(', ')}] }`,
      `      - { name: Wrap, values: [${WRAPS.join(', ')}] }`,
      '    variants:',
      ...variants,
      '',
    ].join('\n'),
  );
}

let dir: string;
let s: ShopifySetup;
let gw: TestGateway;
let productId: string;
const LAST = { Size: 'XL', Flower: 'Poppy', Wrap: 'Velvet' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shopify-large-'));
  shopWithLargeProduct(dir);
  s = await shopifySetup({ simulator: { dataDir: dir } });
  productId = s.sim.shop.ids.gid('Product', 'bouquet_builder');
  gw = await testGateway({ adapter: s.adapter, tenant: { adapter: { type: 'shopify', settings: {} }, payment_handlers: [] } });
});
afterAll(async () => {
  await gw.close();
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const optionsOf = (v: { options: Array<{ name: string; value: string }> }) => Object.fromEntries(v.options.map((o) => [o.name, o.value]));

describe('the selected variant of a large product', () => {
  it('is not among the first page of variants, and variantBySelectedOptions brings it (names and values match without case)', async () => {
    const [plain] = await s.adapter.lookup([productId]);
    expect(plain!.product.variants).toHaveLength(250);
    expect(plain!.product.variants.some((v) => JSON.stringify(optionsOf(v)) === JSON.stringify(LAST))).toBe(false);

    const selected = [
      { name: 'size', value: 'xl' },
      { name: 'Flower', value: 'poppy' },
      { name: 'Wrap', value: 'Velvet' },
    ];
    const [detail] = await s.adapter.lookup([productId], undefined, { selected });
    const variant = detail!.product.variants.find((v) => JSON.stringify(optionsOf(v)) === JSON.stringify(LAST));
    expect(variant).toMatchObject({
      id: s.sim.shop.ids.gid('ProductVariant', 'builder_XL_Poppy_Velvet'),
      availability: { available: true },
    });
    expect(detail!.product.variants).toHaveLength(251);
  });

  it('get_product answers the selection with that variant (not a relaxed one)', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/catalog/product',
      headers: gw.headers(),
      payload: { id: productId, selected: Object.entries(LAST).map(([name, label]) => ({ name, label })) },
    });
    const { product } = res.json();
    expect(product.selected).toEqual(Object.entries(LAST).map(([name, label]) => ({ name, label })));
    expect(product.variants[0].id).toBe(s.sim.shop.ids.gid('ProductVariant', 'builder_XL_Poppy_Velvet'));
  });
});
