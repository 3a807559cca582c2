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

describe('demo store tax, prices including tax (prices_include_tax)', async () => {
  const { adapter: inclusive } = await demoStore({ pricesIncludeTax: true });
  const pots = (extra: Partial<QuoteRequest>) => inclusive.quote(request([['pot_ceramic', 2]], extra));

  it('takes the tax out of the prices: shown as included, nothing added to the total', async () => {
    const q = await pots({ fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) });
    // 3000 contains 3000 * 6.25 / 106.25 = 176.47 -> 176 (half up); shipping is not taxed in Illinois.
    expect(q.taxLines).toEqual([{ title: 'Illinois sales tax', amount: 176, included: true }]);
    expect(q.totals).toEqual({ subtotal: 3000, itemsDiscount: 0, discount: 0, shipping: 500, tax: 0, includedTax: 176, total: 3500 });
  });

  it('counts the shipping where the rule taxes it, and the discounted amount', async () => {
    // (3000 + 500) * 8.875 / 108.875 = 285.30 -> 285.
    expect((await pots({ fulfillment: shipTo(NEW_YORK, ['l1'], { all: 'std-ship' }) })).totals).toMatchObject({
      tax: 0,
      includedTax: 285,
      total: 3500,
    });
    // (3000 - 300) * 6.25 / 106.25 = 158.82 -> 159.
    const discounted = await pots({ discountCodes: ['10OFF'], fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) });
    expect(discounted.totals).toMatchObject({ tax: 0, includedTax: 159, total: 3200 });
  });

  it('knows no included tax where it knows no tax, and none where the rate is 0', async () => {
    expect((await pots({})).totals).toMatchObject({ tax: null, total: 3000 });
    expect((await pots({})).totals.includedTax).toBeUndefined();
    const paris = await pots({ fulfillment: shipTo(PARIS, ['l1'], { all: 'std-ship' }) });
    expect([paris.totals.tax, paris.totals.includedTax, paris.taxLines]).toEqual([0, undefined, []]);
  });

  it('records the included tax with the order', async () => {
    const quoteRequest = request([['pot_ceramic', 2]], { fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) });
    const placed = await inclusive.placeOrder({
      reference: 'chk_inclusive',
      quote: quoteRequest,
      expectedTotal: 3500,
      buyer: { email: 'ann@example.com' },
      payment: { mode: 'gateway_charged', record: { handlerId: 'sandbox', transactionId: 'tx_1', amount: 3500 } },
    });
    const order = (await inclusive.getOrder((placed as { orderId: string }).orderId))!;
    expect(order.totals).toEqual({ subtotal: 3000, itemsDiscount: 0, discount: 0, shipping: 500, tax: 0, includedTax: 176, total: 3500 });
  });
});
