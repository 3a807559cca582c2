import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../adapters/contract.js';
import { CHICAGO, demoStore, request, shipTo } from './fixtures.js';

const { adapter, clock } = await demoStore();
const applied = (q: Quote) => q.discounts.applied.map((d) => [d.code ?? d.title, d.amount]);
const rejected = (q: Quote) => q.discounts.rejected.map((r) => [r.code, r.reason]);
const lineAllocations = (q: Quote, i = 0) =>
  q.discounts.applied[i]!.allocations.map((a) => [a.target.kind === 'line' ? a.target.lineId : a.target.kind, a.amount]);

describe('demo store discount codes', () => {
  it('applies a percentage across the order, matching codes case-insensitively and echoing them as sent', async () => {
    const q = await adapter.quote(
      request(
        [
          ['bouquet_sunflowers', 1],
          ['pot_ceramic', 1],
        ],
        { discountCodes: ['welcome20'] },
      ),
    );
    expect(q.discounts.applied).toEqual([
      {
        code: 'welcome20',
        title: '20% Off',
        amount: 800,
        automatic: false,
        method: 'across',
        priority: 1,
        allocations: [
          { target: { kind: 'line', lineId: 'l1' }, amount: 500 },
          { target: { kind: 'line', lineId: 'l2' }, amount: 300 },
        ],
      },
    ]);
    expect(q.totals.itemsDiscount).toBe(800);
  });

  it('splits a fixed amount by value, giving the rounding remainder to the largest fraction', async () => {
    // 500 over 3500 / 1500 / 900: 296.6 / 127.1 / 76.3 -> 297 / 127 / 76.
    const q = await adapter.quote(
      request(
        [
          ['bouquet_roses', 1],
          ['pot_ceramic', 1],
          ['ebook_flower_care', 1],
        ],
        { discountCodes: ['FIXED500'] },
      ),
    );
    expect(lineAllocations(q)).toEqual([
      ['l1', 297],
      ['l2', 127],
      ['l3', 76],
    ]);
    expect(q.discounts.applied[0]!.amount).toBe(500);
  });

  it('applies item-level codes to eligible lines only: `each` per line or per unit', async () => {
    const roses = await adapter.quote(
      request(
        [
          ['bouquet_roses', 1],
          ['pot_ceramic', 2],
          ['bouquet_roses', 3],
        ],
        { discountCodes: ['ROSES15'] },
      ),
    );
    expect(lineAllocations(roses)).toEqual([
      ['l1', 525],
      ['l3', 1575],
    ]);
    const tulips = await adapter.quote(
      request(
        [
          ['bouquet_tulips', 1],
          ['pot_ceramic', 1],
        ],
        { discountCodes: ['TULIP200'] },
      ),
    );
    expect(applied(tulips)).toEqual([['TULIP200', 200]]);
  });

  it('stacks in priority order, each on what the earlier ones left, automatic before codes', async () => {
    // 2 tulips (6000): automatic 10% each -> 600, then 10OFF on 5400 -> 540.
    const q = await adapter.quote(request([['bouquet_tulips', 2]], { discountCodes: ['10OFF'] }));
    expect(q.discounts.applied.map((d) => [d.code ?? d.title, d.amount, d.priority, d.automatic])).toEqual([
      ['10% off tulips when you buy 2 or more', 600, 1, true],
      ['10OFF', 540, 2, false],
    ]);
    expect(q.totals.total).toBe(6000 - 1140);
  });

  it('rejects an unknown code as invalid and the same code twice as already applied', async () => {
    const q = await adapter.quote(request([['pot_ceramic', 1]], { discountCodes: ['WHATEVER', '10OFF', '10off', ''] }));
    expect(rejected(q)).toEqual([
      ['WHATEVER', 'invalid'],
      ['10off', 'already_applied'],
      ['', 'invalid'],
    ]);
    expect(q.discounts.rejected.map((r) => r.index)).toEqual([0, 2, 3]);
    expect(applied(q)).toEqual([['10OFF', 150]]);
  });

  it('judges expiry with the injected clock: invalid before the start, expired after the end', async () => {
    const at = async (iso: string) => {
      clock.now = Date.parse(iso);
      return adapter.quote(request([['pot_ceramic', 4]], { discountCodes: ['SPRING2025'] }));
    };
    try {
      expect(rejected(await at('2025-01-15T00:00:00Z'))).toEqual([['SPRING2025', 'invalid']]);
      expect(applied(await at('2025-04-01T00:00:00Z'))).toEqual([['SPRING2025', 1500]]);
      expect(rejected(await at('2025-06-01T00:00:00Z'))).toEqual([['SPRING2025', 'expired']]);
    } finally {
      clock.now = Date.parse('2026-03-10T12:00:00Z');
    }
  });

  it('refuses to combine an individual-use code with another code: the first one submitted wins', async () => {
    const soloFirst = await adapter.quote(request([['pot_ceramic', 2]], { discountCodes: ['SOLO25', '10OFF'] }));
    expect(applied(soloFirst)).toEqual([['SOLO25', 750]]);
    expect(rejected(soloFirst)).toEqual([['10OFF', 'combination_disallowed']]);
    const soloLast = await adapter.quote(request([['pot_ceramic', 2]], { discountCodes: ['10OFF', 'solo25'] }));
    expect(applied(soloLast)).toEqual([['10OFF', 300]]);
    expect(rejected(soloLast)).toEqual([['solo25', 'combination_disallowed']]);
    // A code that does not apply does not block the individual-use one.
    const notApplicable = await adapter.quote(request([['pot_ceramic', 2]], { discountCodes: ['ROSES15', 'SOLO25'] }));
    expect(applied(notApplicable)).toEqual([['SOLO25', 750]]);
  });

  it('needs a logged-in buyer for member codes', async () => {
    const guest = await adapter.quote(
      request([['pot_ceramic', 2]], { discountCodes: ['MEMBER15'], buyer: { email: 'john.doe@example.com' } }),
    );
    expect(rejected(guest)).toEqual([['MEMBER15', 'user_not_logged_in']]);
    const member = await adapter.quote(request([['pot_ceramic', 2]], { discountCodes: ['MEMBER15'], identity: { customerId: 'cust_2' } }));
    expect(applied(member)).toEqual([['MEMBER15', 450]]);
  });

  it('limits customer codes to the listed customers or emails', async () => {
    const quote = (identity?: { customerId: string; email?: string }) =>
      adapter.quote(request([['pot_ceramic', 2]], { discountCodes: ['FRIENDS30'], ...(identity && { identity }) }));
    expect(rejected(await quote())).toEqual([['FRIENDS30', 'user_not_logged_in']]);
    expect(rejected(await quote({ customerId: 'cust_2' }))).toEqual([['FRIENDS30', 'user_ineligible']]);
    expect(applied(await quote({ customerId: 'cust_1' }))).toEqual([['FRIENDS30', 900]]);
    // cust_3's email (customers.csv) is on the list.
    expect(applied(await quote({ customerId: 'cust_3' }))).toEqual([['FRIENDS30', 900]]);
    expect(applied(await quote({ customerId: 'cust_77', email: 'Jane.Doe@example.com' }))).toEqual([['FRIENDS30', 900]]);
  });

  it('rejects codes nothing in the cart qualifies for, saying why', async () => {
    const q = await adapter.quote(request([['pot_ceramic', 2]], { discountCodes: ['ROSES15', 'BIG50'] }));
    expect(q.discounts.rejected).toEqual([
      { code: 'ROSES15', index: 0, reason: 'not_applicable', detail: 'No item in the cart qualifies.' },
      { code: 'BIG50', index: 1, reason: 'not_applicable', detail: 'Needs a subtotal of at least 50.00 USD on eligible items.' },
    ]);
    const big = await adapter.quote(request([['pot_ceramic', 4]], { discountCodes: ['BIG50'] }));
    expect(applied(big)).toEqual([['BIG50', 1000]]);
  });
});

describe('demo store automatic promotions', () => {
  it('gives free standard shipping over $100 as an allocation to the group shipping', async () => {
    const q = await adapter.quote(request([['orchid_white', 3]], { fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) }));
    expect(q.discounts.applied).toEqual([
      {
        title: 'Free Shipping on orders over $100',
        amount: 500,
        automatic: true,
        method: 'across',
        priority: 1,
        allocations: [{ target: { kind: 'shipping', methodId: 'm1', groupKey: 'all' }, amount: 500 }],
      },
    ]);
    expect(q.totals).toMatchObject({ shipping: 500, discount: 500, itemsDiscount: 0 });
    // Express is not covered; the promotion stays listed, at 0.
    const express = await adapter.quote(request([['orchid_white', 3]], { fulfillment: shipTo(CHICAGO, ['l1'], { all: 'exp-ship-us' }) }));
    expect(applied(express)).toEqual([['Free Shipping on orders over $100', 0]]);
    expect(express.totals).toMatchObject({ shipping: 1500, discount: 0 });
  });

  it('frees the shipping of the group holding the roses only, when groups ship separately', async () => {
    const q = await adapter.quote(
      request(
        [
          ['bouquet_roses', 1],
          ['pot_ceramic', 1],
        ],
        { fulfillment: shipTo(CHICAGO, ['l1', 'l2'], { florist: 'std-ship', warehouse: 'std-ship' }, true) },
      ),
    );
    const free = q.discounts.applied.find((d) => d.title === 'Free Shipping on Rose Bouquets')!;
    expect(free.allocations).toEqual([{ target: { kind: 'shipping', methodId: 'm1', groupKey: 'florist' }, amount: 500 }]);
    expect(q.totals).toMatchObject({ shipping: 1000, discount: 500 });
  });

  it('lists an applicable promotion before shipping is chosen (cart estimate), at 0', async () => {
    const q = await adapter.quote(request([['bouquet_roses', 1]]));
    expect(applied(q)).toEqual([['Free Shipping on Rose Bouquets', 0]]);
    expect(q.totals.shipping).toBeNull();
  });

  it('takes the free-shipping code only for the rates it covers', async () => {
    const q = await adapter.quote(
      request([['pot_ceramic', 1]], { discountCodes: ['freeship'], fulfillment: shipTo(CHICAGO, ['l1'], { all: 'std-ship' }) }),
    );
    expect(applied(q)).toEqual([['freeship', 500]]);
    const digitalOnly = await adapter.quote(request([['ebook_flower_care', 1]], { discountCodes: ['FREESHIP'] }));
    expect(digitalOnly.discounts.rejected).toEqual([
      { code: 'FREESHIP', index: 0, reason: 'not_applicable', detail: 'Nothing in the cart is shipped.' },
    ]);
  });

  it('turns an accepted eligibility claim into a provisional automatic discount and ignores unknown claims', async () => {
    const q = await adapter.quote(request([['pot_ceramic', 2]], { eligibilityClaims: ['com.example.student', 'com.example.astronaut'] }));
    expect(q.discounts.applied).toEqual([
      {
        title: 'Student discount 10%',
        amount: 300,
        automatic: true,
        method: 'across',
        priority: 1,
        provisional: true,
        eligibility: 'com.example.student',
        allocations: [{ target: { kind: 'line', lineId: 'l1' }, amount: 300 }],
      },
    ]);
    const without = await adapter.quote(request([['pot_ceramic', 2]]));
    expect(without.discounts.applied).toEqual([]);
  });
});
