import { describe, expect, it } from 'vitest';
import type { FulfillmentMethodRequest, Quote } from '../../../adapters/contract.js';
import { CHICAGO, demoStore, PARIS, request, shipTo, TORONTO } from './fixtures.js';

const { adapter } = await demoStore();
const group = (q: Quote, m = 0, g = 0) => q.fulfillment![m]!.groups[g]!;
const optionPrices = (q: Quote, g = 0) => group(q, 0, g).options.map((o) => [o.id, o.amount]);
const pickupAt = (locationId: string | object, lineIds: string[], selected?: string): FulfillmentMethodRequest => ({
  methodId: 'p1',
  type: 'pickup',
  lineIds,
  destination: typeof locationId === 'string' ? { locationId } : { address: locationId },
  ...(selected && { selectedOptions: { all: selected } }),
});

describe('demo store shipping', () => {
  it('offers the rates of the destination country, cheapest first, with delivery windows from the injected clock', async () => {
    const q = await adapter.quote(request([['bouquet_roses', 1]], { fulfillment: shipTo(CHICAGO, ['l1']) }));
    expect(group(q).options).toEqual([
      {
        id: 'std-ship',
        title: 'Standard Shipping',
        description: 'Delivered by USPS in 3-5 days after dispatch',
        carrier: 'USPS',
        earliest: '2026-03-13T12:00:00.000Z',
        latest: '2026-03-15T12:00:00.000Z',
        amount: 500,
      },
      {
        id: 'exp-ship-us',
        title: 'Express Shipping (US)',
        description: 'Delivered by UPS in 1-2 days after dispatch',
        carrier: 'UPS',
        earliest: '2026-03-11T12:00:00.000Z',
        latest: '2026-03-12T12:00:00.000Z',
        amount: 1500,
      },
    ]);
  });

  it("uses a country's own rates over the defaults, and the defaults elsewhere", async () => {
    const canada = await adapter.quote(request([['pot_ceramic', 1]], { fulfillment: shipTo(TORONTO, ['l1']) }));
    expect(optionPrices(canada)).toEqual([
      ['ca-std', 900],
      ['ca-exp', 2200],
    ]);
    const france = await adapter.quote(request([['pot_ceramic', 1]], { fulfillment: shipTo(PARIS, ['l1']) }));
    expect(optionPrices(france)).toEqual([
      ['std-ship', 500],
      ['exp-ship-intl', 2500],
    ]);
    // The warehouse needs a day of handling before dispatch.
    expect(group(france).options[0]!.earliest).toBe('2026-03-14T12:00:00.000Z');
  });

  it('says why nothing can be offered when an origin does not serve the country', async () => {
    const q = await adapter.quote(
      request(
        [
          ['bouquet_roses', 1],
          ['pot_ceramic', 1],
        ],
        { fulfillment: shipTo(PARIS, ['l1', 'l2']) },
      ),
    );
    expect(group(q).options).toEqual([]);
    expect(group(q).unavailableReason).toBe('Bouquet of Red Roses cannot be shipped to FR.');
  });

  it('has no options before a destination, and none for a pickup location used as a shipping address', async () => {
    const none = await adapter.quote(
      request([['pot_ceramic', 1]], {
        fulfillment: { multiGroup: false, methods: [{ methodId: 'm1', type: 'shipping', lineIds: ['l1'] }] },
      }),
    );
    expect(group(none)).toEqual({ key: 'all', lineIds: ['l1'], options: [] });
    const wrong = await adapter.quote(
      request([['pot_ceramic', 1]], {
        fulfillment: {
          multiGroup: false,
          methods: [{ methodId: 'm1', type: 'shipping', lineIds: ['l1'], destination: { locationId: 'loop' } }],
        },
      }),
    );
    expect(group(wrong).unavailableReason).toMatch(/needs a delivery address/);
  });

  it('echoes a selected option that exists and ignores one that does not', async () => {
    const ok = await adapter.quote(request([['pot_ceramic', 1]], { fulfillment: shipTo(CHICAGO, ['l1'], { all: 'exp-ship-us' }) }));
    expect(group(ok).selectedOptionId).toBe('exp-ship-us');
    expect(ok.totals.shipping).toBe(1500);
    const stale = await adapter.quote(request([['pot_ceramic', 1]], { fulfillment: shipTo(TORONTO, ['l1'], { all: 'exp-ship-us' }) }));
    expect(group(stale).selectedOptionId).toBeUndefined();
    expect(stale.totals.shipping).toBeNull();
  });

  it('leaves digital lines out of fulfillment', async () => {
    const q = await adapter.quote(
      request(
        [
          ['ebook_flower_care', 1],
          ['pot_ceramic', 1],
        ],
        { fulfillment: shipTo(CHICAGO, ['l1', 'l2'], { all: 'std-ship' }) },
      ),
    );
    expect(q.fulfillment![0]!.lineIds).toEqual(['l2']);
    const digital = await adapter.quote(request([['ebook_flower_care', 1]], { fulfillment: shipTo(CHICAGO, ['l1']) }));
    expect(digital.fulfillment![0]!.groups).toEqual([]);
    expect(digital.totals.shipping).toBe(0);
    expect(digital.availableMethods).toEqual([]);
  });
});

describe('demo store multi-group split', () => {
  const lines: Array<[string, number]> = [
    ['bouquet_roses', 1],
    ['pot_ceramic', 1],
    ['orchid_white', 1],
  ];

  it('splits by origin when the platform accepts several groups, each priced on its own', async () => {
    const q = await adapter.quote(
      request(lines, { fulfillment: shipTo(CHICAGO, ['l1', 'l2', 'l3'], { florist: 'std-ship', warehouse: 'exp-ship-us' }, true) }),
    );
    expect(q.fulfillment![0]!.groups.map((g) => [g.key, g.lineIds, g.selectedOptionId])).toEqual([
      ['florist', ['l1', 'l3'], 'std-ship'],
      ['warehouse', ['l2'], 'exp-ship-us'],
    ]);
    expect(q.totals.shipping).toBe(2000);
  });

  it('keeps one group per method otherwise', async () => {
    const q = await adapter.quote(request(lines, { fulfillment: shipTo(CHICAGO, ['l1', 'l2', 'l3'], { all: 'std-ship' }) }));
    expect(q.fulfillment![0]!.groups.map((g) => [g.key, g.lineIds])).toEqual([['all', ['l1', 'l2', 'l3']]]);
    expect(q.totals.shipping).toBe(500);
  });

  it('keeps group keys stable when quantities and lines change', async () => {
    const keys = async (l: Array<[string, number]>, ids: string[]) =>
      (await adapter.quote(request(l, { fulfillment: shipTo(CHICAGO, ids, undefined, true) }))).fulfillment![0]!.groups.map((g) => g.key);
    expect(await keys(lines, ['l1', 'l2', 'l3'])).toEqual(['florist', 'warehouse']);
    expect(
      await keys(
        [
          ['bouquet_roses', 5],
          ['pot_ceramic', 2],
        ],
        ['l1', 'l2'],
      ),
    ).toEqual(['florist', 'warehouse']);
    expect(await keys([['pot_ceramic', 2]], ['l1'])).toEqual(['warehouse']);
  });

  it('prices shipping for one method and pickup for another in one checkout', async () => {
    const q = await adapter.quote(
      request(
        [
          ['pot_ceramic', 1],
          ['orchid_white', 1],
        ],
        {
          fulfillment: {
            multiGroup: false,
            methods: [
              {
                methodId: 'm1',
                type: 'shipping',
                lineIds: ['l1'],
                destination: { address: CHICAGO },
                selectedOptions: { all: 'std-ship' },
              },
              pickupAt('loop', ['l2'], 'pickup-loop'),
            ],
          },
        },
      ),
    );
    expect(q.fulfillment!.map((m) => [m.methodId, m.lineIds, m.groups[0]!.selectedOptionId])).toEqual([
      ['m1', ['l1'], 'std-ship'],
      ['p1', ['l2'], 'pickup-loop'],
    ]);
    expect(q.totals.shipping).toBe(500);
  });
});

describe('demo store pickup', () => {
  const pickup = (lines: Array<[string, number]>, location: string | object) =>
    adapter.quote(
      request(lines, {
        fulfillment: {
          multiGroup: true,
          methods: [
            pickupAt(
              location,
              lines.map((_, i) => `l${i + 1}`),
            ),
          ],
        },
      }),
    );

  it('offers free pickup where the location holds the stock, ready within its hours', async () => {
    const q = await pickup([['bouquet_roses', 10]], 'loop');
    expect(group(q)).toEqual({
      key: 'all',
      lineIds: ['l1'],
      options: [
        {
          id: 'pickup-loop',
          title: 'Pick up at Petal & Stem Loop Studio',
          description: 'Ready within 2 hours',
          earliest: '2026-03-10T14:00:00.000Z',
          amount: 0,
        },
      ],
    });
  });

  it("checks each location's own stock, lines of one variant together", async () => {
    const tooMany = await pickup([['bouquet_roses', 10]], 'evanston');
    expect(group(tooMany).options).toEqual([]);
    expect(group(tooMany).unavailableReason).toBe('Bouquet of Red Roses not in stock at Petal & Stem Evanston Shop.');
    expect(group(await pickup([['bouquet_roses', 6]], 'evanston')).options).toHaveLength(1);
    expect(
      group(
        await pickup(
          [
            ['bouquet_roses', 4],
            ['bouquet_roses', 3],
          ],
          'evanston',
        ),
      ).options,
    ).toEqual([]);
    // Sunflowers are stocked at the Loop only; the vase (backorder) at neither.
    expect(group(await pickup([['bouquet_sunflowers', 1]], 'evanston')).options).toEqual([]);
    expect(group(await pickup([['vase_glass', 1]], 'loop')).options).toEqual([]);
  });

  it('hands over untracked preorders from their release date', async () => {
    const q = await pickup([['bouquet_peonies', 2]], 'evanston');
    expect(group(q).options[0]!.earliest).toBe('2027-05-01T00:00:00.000Z');
  });

  it('needs one of its locations as destination', async () => {
    expect(group(await pickup([['bouquet_roses', 1]], 'moon')).unavailableReason).toBe('"moon" is not one of our pickup locations.');
    expect(group(await pickup([['bouquet_roses', 1]], CHICAGO)).unavailableReason).toMatch(/needs one of our pickup locations/);
  });

  it('lists the methods each line could use, with when it can be fulfilled', async () => {
    const q = await adapter.quote(
      request([
        ['bouquet_roses', 1],
        ['bouquet_peonies', 1],
        ['vase_glass', 1],
        ['ebook_flower_care', 1],
      ]),
    );
    expect(q.availableMethods).toEqual([
      { type: 'shipping', lineIds: ['l1'], fulfillableOn: 'now', description: 'Ships from Petal & Stem florist.' },
      { type: 'shipping', lineIds: ['l2'], fulfillableOn: '2027-05-01', description: 'Ships from Petal & Stem florist.' },
      { type: 'shipping', lineIds: ['l3'], fulfillableOn: null, description: 'Ships from Petal & Stem warehouse.' },
      {
        type: 'pickup',
        lineIds: ['l1'],
        fulfillableOn: 'now',
        description: 'Free pickup at Petal & Stem Loop Studio or Petal & Stem Evanston Shop.',
      },
      {
        type: 'pickup',
        lineIds: ['l2'],
        fulfillableOn: '2027-05-01',
        description: 'Free pickup at Petal & Stem Loop Studio or Petal & Stem Evanston Shop.',
      },
    ]);
  });
});

describe('demo store catalog fulfillment discovery', () => {
  it('answers per variant and method for an address, with the cheapest and the fastest option', async () => {
    const [roses] = await adapter.discoverFulfillment({
      variantIds: ['bouquet_roses'],
      destination: { address: { country: 'CA', region: 'ON' } },
      methods: ['shipping'],
    });
    expect(roses).toEqual({
      variantId: 'bouquet_roses',
      methods: [
        {
          type: 'shipping',
          available: true,
          status: 'in_stock',
          description: 'Ships from Petal & Stem florist to CA.',
          options: [
            {
              id: 'ca-std',
              title: 'Standard Shipping (Canada)',
              description: 'Delivered by Canada Post in 4-8 days after dispatch',
              amount: 900,
              earliest: '2026-03-14T12:00:00.000Z',
              latest: '2026-03-18T12:00:00.000Z',
            },
            {
              id: 'ca-exp',
              title: 'Express Shipping (Canada)',
              description: 'Delivered by Purolator in 2-3 days after dispatch',
              amount: 2200,
              earliest: '2026-03-12T12:00:00.000Z',
              latest: '2026-03-13T12:00:00.000Z',
            },
          ],
        },
      ],
    });
  });

  it('says when shipping cannot reach the destination, authoritatively per method', async () => {
    const answers = await adapter.discoverFulfillment({
      variantIds: ['bouquet_roses', 'pot_ceramic', 'ebook_flower_care', 'nope'],
      destination: { address: { country: 'FR' } },
    });
    expect(answers.map((a) => [a.variantId, a.methods.map((m) => [m.type, m.available])])).toEqual([
      ['bouquet_roses', [['shipping', false]]],
      ['pot_ceramic', [['shipping', true]]],
      ['ebook_flower_care', []],
    ]);
  });

  it('reports pickup at the named location with its own stock, and shipping for its area', async () => {
    const answers = await adapter.discoverFulfillment({
      variantIds: ['bouquet_sunflowers', 'orchid_white'],
      destination: { locationId: 'evanston' },
    });
    expect(
      answers.map((a) => a.methods.map((m) => [m.type, m.available, m.status, m.locationId ?? null, m.options.map((o) => o.id)])),
    ).toEqual([
      [
        ['shipping', true, 'in_stock', null, ['std-ship', 'exp-ship-us']],
        ['pickup', false, 'out_of_stock', 'evanston', []],
      ],
      [
        ['shipping', true, 'in_stock', null, ['std-ship', 'exp-ship-us']],
        ['pickup', true, 'in_stock', 'evanston', ['pickup-evanston']],
      ],
    ]);
  });

  it('picks a stocked location in the area when only an address is given', async () => {
    const [sunflowers] = await adapter.discoverFulfillment({
      variantIds: ['bouquet_sunflowers'],
      destination: { address: { country: 'US', region: 'IL' } },
      methods: ['pickup'],
    });
    expect(sunflowers!.methods).toEqual([
      {
        type: 'pickup',
        available: true,
        status: 'in_stock',
        locationId: 'loop',
        description: 'Free pickup at Petal & Stem Loop Studio.',
        options: [expect.objectContaining({ id: 'pickup-loop' })],
      },
    ]);
    const [abroad] = await adapter.discoverFulfillment({
      variantIds: ['bouquet_sunflowers'],
      destination: { address: { country: 'FR' } },
      methods: ['pickup'],
    });
    expect(abroad!.methods).toEqual([]);
  });

  it('accepts discovered ids at checkout: the location as destination, the option as selection', async () => {
    const [orchid] = await adapter.discoverFulfillment({
      variantIds: ['orchid_white'],
      destination: { locationId: 'evanston' },
      methods: ['pickup'],
    });
    const { locationId, options } = orchid!.methods[0]!;
    const q = await adapter.quote(
      request([['orchid_white', 1]], { fulfillment: { multiGroup: false, methods: [pickupAt(locationId!, ['l1'], options[0]!.id)] } }),
    );
    expect(group(q).selectedOptionId).toBe('pickup-evanston');
  });
});
