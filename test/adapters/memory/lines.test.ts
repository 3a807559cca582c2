import { describe, expect, it } from 'vitest';
import { demoStore, request } from './fixtures.js';

const { adapter } = await demoStore();

describe('demo store line pricing', () => {
  it('prices lines from the catalog, unit price times quantity', async () => {
    const q = await adapter.quote(
      request([
        ['bouquet_roses', 2],
        ['florist_tee_l_green', 1],
      ]),
    );
    expect(q.lines.map((l) => [l.lineId, l.unitPrice, l.subtotal, l.variantTitle])).toEqual([
      ['l1', 3500, 7000, undefined],
      ['l2', 2600, 2600, 'L / Green'],
    ]);
    expect(q.lineProblems).toEqual([]);
    expect(q.totals.subtotal).toBe(9600);
  });

  it('reports unknown variants, quantities below one, out of stock and discontinued items, and leaves them out', async () => {
    const q = await adapter.quote(
      request([
        ['no_such_thing', 1],
        ['bouquet_roses', 0],
        ['gardenias', 1],
        ['wreath_holiday', 1],
        ['florist_tee_l_white', 1],
        ['orchid_white', 1],
      ]),
    );
    expect(q.lineProblems).toEqual([
      { lineId: 'l1', code: 'not_found' },
      { lineId: 'l2', code: 'invalid_quantity' },
      { lineId: 'l3', code: 'out_of_stock' },
      { lineId: 'l4', code: 'discontinued' },
      { lineId: 'l5', code: 'out_of_stock' },
    ]);
    expect(q.lines.map((l) => l.lineId)).toEqual(['l6']);
  });

  it('reports a quantity above stock with what is available, sharing stock between lines of one variant', async () => {
    const q = await adapter.quote(
      request([
        ['bouquet_sunflowers', 400],
        ['bouquet_sunflowers', 150],
        ['florist_tee_l_green', 16],
      ]),
    );
    expect(q.lineProblems).toEqual([
      { lineId: 'l2', code: 'insufficient_stock', available: 100 },
      { lineId: 'l3', code: 'insufficient_stock', available: 15 },
    ]);
    // Priced at the requested quantity so the buyer sees what they asked for.
    expect(q.lines.map((l) => l.quantity)).toEqual([400, 150, 16]);
  });

  it('sells backorder and preorder items beyond stock, with when they can be fulfilled', async () => {
    const q = await adapter.quote(
      request([
        ['vase_glass', 3],
        ['bouquet_peonies', 2],
        ['ebook_flower_care', 5],
      ]),
    );
    expect(q.lineProblems).toEqual([]);
    expect(q.lines.map((l) => [l.lineId, l.fulfillableOn])).toEqual([
      ['l1', null],
      ['l2', '2027-05-01'],
      ['l3', 'now'],
    ]);
  });
});
