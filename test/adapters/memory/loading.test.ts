import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../adapters/kit/config-error.js';
import { DATA_DIR, demoStore, STOREFRONT } from './fixtures.js';

/** A copy of the demo data with one file edited. */
function dataWith(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'demo-data-'));
  cpSync(DATA_DIR, dir, { recursive: true });
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  return dir;
}

async function loadError(file: string, edit: (text: string) => string): Promise<string> {
  const dataDir = dataWith(file, edit);
  try {
    await demoStore({ dataDir });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.replace(dataDir, '<data>');
  }
  throw new Error(`${file} loaded although it is broken`);
}

describe('demo data loading', () => {
  it('loads the shipped files: every product, variant, code, promotion, rate, location and tax rule', async () => {
    const { adapter } = await demoStore();
    const page = await adapter.search({ limit: 50 });
    expect(page.totalCount).toBe(11);
    expect(page.products.find((p) => p.id === 'florist_tee')!.variants.map((v) => v.id)).toHaveLength(5);
    expect((await adapter.pickupLocations()).map((l) => l.id)).toEqual(['loop', 'evanston']);
    expect(adapter.capabilities.acceptedClaims).toEqual(['com.example.student']);
  });

  it('keeps the CSV as the source of titles, prices, images and stock', async () => {
    const { adapter } = await demoStore();
    const [roses] = await adapter.lookup(['bouquet_roses']);
    expect(roses!.product.title).toBe('Bouquet of Red Roses');
    expect(roses!.product.variants[0]!.price).toEqual({ amount: 3500, currency: 'USD' });
    expect(roses!.product.media[0]).toEqual({
      type: 'image',
      url: `${STOREFRONT}/images/roses.svg`, // relative in the CSV: a file the gateway serves
      altText: 'Twelve long-stemmed red roses hand-tied with eucalyptus',
    });
    expect(roses!.product.variants[0]!.availability).toEqual({ available: true, status: 'in_stock', quantity: 1000 });
  });

  it('names the file and the field of a value with the wrong type', async () => {
    expect(await loadError('catalog.yaml', (t) => t.replace('price: 2400, stock: 25', 'price: "24.00", stock: 25'))).toMatch(
      /<data>\/catalog\.yaml: \$\.products\[6\]\.variants\[0\]\.price must be integer/,
    );
    expect(await loadError('tax.yaml', (t) => t.replace('rate: "6.25"', 'rate: "6,25"'))).toMatch(
      /<data>\/tax\.yaml: \$\.rules\[0\]\.rate must match pattern/,
    );
    expect(await loadError('shipping.yaml', (t) => t.replace('handling_days: 0', 'handling_days: soon'))).toMatch(
      /<data>\/shipping\.yaml: \$\.origins\[0\]\.handling_days must be integer/,
    );
  });

  it('names a broken CSV cell by row and column', async () => {
    expect(await loadError('products.csv', (t) => t.replace('Ceramic Pot,1500', 'Ceramic Pot,15.00'))).toMatch(
      /<data>\/products\.csv: \$\[1\]\.price must match pattern/,
    );
    expect(await loadError('promotions.csv', (t) => t.replace('["bouquet_roses"]', 'roses'))).toMatch(
      /<data>\/promotions\.csv: \$\[1\]\.eligible_item_ids must be empty or a JSON array/,
    );
  });

  it('refuses references to things that do not exist', async () => {
    expect(await loadError('catalog.yaml', (t) => t.replace('ships_from: warehouse', 'ships_from: moon'))).toMatch(
      /\$\.products\[1\]\.ships_from "moon" is not an origin/,
    );
    expect(await loadError('discounts.yaml', (t) => t.replace('products: [bouquet_roses]', 'products: [bouquet_lilies]'))).toMatch(
      /discounts\.yaml: \$\.codes\[3\]\.applies_to\.products\[0\] "bouquet_lilies" is not a catalog product/,
    );
    expect(await loadError('discounts.yaml', (t) => t.replace('customers: [cust_1]', 'customers: [cust_9]'))).toMatch(
      /\$\.codes\[8\]\.customers\[0\] "cust_9" is not in customers\.csv/,
    );
    expect(await loadError('shipping.yaml', (t) => t.replace('vase_glass: 0', 'vase_crystal: 0'))).toMatch(
      /\$\.pickup_locations\[1\]\.stock\["vase_crystal"\] is not a catalog variant id/,
    );
    expect(await loadError('promotions.yaml', (t) => t.replace('service_levels: [standard]', 'service_levels: [overnight]'))).toMatch(
      /"overnight" is not a service level/,
    );
  });

  it('refuses an entry that repeats what the CSV already says, or a CSV row without its entry', async () => {
    expect(await loadError('discounts.yaml', (t) => t.replace('  - code: 10OFF\n', '  - code: 10OFF\n    value: 15\n'))).toMatch(
      /\$\.codes\[0\]\.value repeats .*discounts\.csv/,
    );
    expect(await loadError('catalog.yaml', (t) => t.replace('handle: ceramic-pot\n', 'handle: ceramic-pot\n    price: 1600\n'))).toMatch(
      /\$\.products\[1\]\.price repeats/,
    );
    expect(
      await loadError('shipping.yaml', (t) => t.replace(/ {2}- id: std-ship\n {4}carrier: USPS\n {4}min_days: 3\n {4}max_days: 5\n/, '')),
    ).toMatch(/\$\.rates has no entry for "std-ship"/);
  });

  it('refuses impossible options: a combination twice, a value the axis lacks', async () => {
    expect(
      await loadError('catalog.yaml', (t) => t.replace('options: { Size: M, Color: Green } }', 'options: { Size: S, Color: Green } }')),
    ).toMatch(/variants\[1\]\.options repeats the combination/);
    expect(
      await loadError('catalog.yaml', (t) => t.replace('options: { Size: L, Color: Green } }', 'options: { Size: XL, Color: Green } }')),
    ).toMatch(/variants\[2\]\.options\["Size"\] must be one of/);
  });
});
