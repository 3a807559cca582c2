import { describe, expect, it } from 'vitest';
import type { QuoteRequest } from '../../../adapters/contract.js';
import { CHICAGO, demoStore, NEW_YORK, PARIS, request, shipTo, TORONTO } from './fixtures.js';

const { adapter } = await demoStore();
const twoPots = (extra: Partial<QuoteRequest>) => adapter.quote(request([['pot_ceramic', 2]], extra));

describe('demo store tax', () => {
  it('taxes Illinois lines at 6.25 %, not the shipping', async () => {
    const q = await twoPots({ fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) });
    // 3000 * 6.25 % = 187.5 -> 188 (half up).
    expect(q.taxLines).toEqual([{ title: 'Illinois sales tax', amount: 188 }]);
    expect(q.totals).toEqual({ subtotal: 3000, itemsDiscount: 0, discount: 0, shipping: 500, tax: 188, total: 3688 });
  });

  it('taxes the shipping where the rule says so (New York, Ontario)', async () => {
    // (3000 + 500) * 8.875 % = 310.625 -> 311.
    expect((await twoPots({ fulfillment: shipTo(NEW_YORK, ['l1'], { all: 'std-ship' }) })).totals).toMatchObject({ tax: 311, total: 3811 });
    // (3000 + 900) * 13 % = 507.
    expect((await twoPots({ fulfillment: shipTo(TORONTO, ['l1'], { all: 'ca-std' }) })).totals).toMatchObject({ tax: 507, total: 4407 });
  });

  it('falls back to the country rule, then to the default', async () => {
    const vancouver = await twoPots({ fulfillment: shipTo({ ...TORONTO, region: 'BC' }, ['l1'], { all: 'ca-std' }) });
    expect(vancouver.taxLines).toEqual([{ title: 'GST', amount: 195 }]);
    const paris = await twoPots({ fulfillment: shipTo(PARIS, ['l1'], { all: 'std-ship' }) });
    expect(paris.totals.tax).toBe(0);
    expect(paris.taxLines).toEqual([]);
  });

  it('is null without a destination, or without the region its country needs', async () => {
    expect((await twoPots({})).totals.tax).toBeNull();
    expect((await twoPots({ fulfillment: shipTo({ ...CHICAGO, region: undefined }, ['l1'], { all: 'std-ship' }) })).totals.tax).toBeNull();
    expect((await twoPots({ location: { country: 'US' } })).totals.tax).toBeNull();
  });

  it('estimates from the location hint of a cart', async () => {
    // 3000 * 8.875 % = 266.25 -> 266.
    expect((await twoPots({ location: { country: 'US', region: 'NY' } })).totals).toMatchObject({ tax: 266, shipping: null, total: 3266 });
  });

  it('taxes the discounted amount', async () => {
    // (3000 - 300) * 6.25 % = 168.75 -> 169.
    expect((await twoPots({ discountCodes: ['10OFF'], fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) })).totals.tax).toBe(169);
  });

  it('taxes pickup at the location, digital lines where the buyer is, each jurisdiction on its own', async () => {
    const q = await adapter.quote(
      request(
        [
          ['bouquet_roses', 1],
          ['pot_ceramic', 1],
          ['ebook_flower_care', 1],
        ],
        {
          fulfillment: {
            multiGroup: false,
            methods: [
              {
                methodId: 'p1',
                type: 'pickup',
                lineIds: ['l1'],
                destination: { locationId: 'loop' },
                selectedOptions: { all: 'pickup-loop' },
              },
              {
                methodId: 'm1',
                type: 'shipping',
                lineIds: ['l2'],
                destination: { address: NEW_YORK },
                selectedOptions: { all: 'std-ship' },
              },
            ],
          },
        },
      ),
    );
    // IL: 3500 * 6.25 % = 218.75 -> 219; NY: (1500 + 900 e-book + 500 shipping) * 8.875 % = 257.375 -> 257.
    expect(q.taxLines).toEqual([
      { title: 'Illinois sales tax', amount: 219 },
      { title: 'New York sales tax', amount: 257 },
    ]);
    expect(q.totals.tax).toBe(476);
  });
});
