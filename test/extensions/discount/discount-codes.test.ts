import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartGateway, line, NO_DISCOUNT, STOREFRONT, type CartGateway, type Transport } from '../../capabilities/cart/cart-gateway.js';

let gw: CartGateway;
beforeAll(async () => {
  gw = await cartGateway();
});
afterAll(() => gw.close());

const warnings = (body: any) => (body.messages ?? []).filter((m: any) => m.type === 'warning');

describe.each<Transport>(['rest', 'mcp'])('discount extension on carts over %s', (transport) => {
  const client = () => gw.client(transport);

  it('applies a code case-insensitively, echoes it as sent and allocates it to the lines', async () => {
    const { body } = await client().create({
      line_items: [line('bouquet_sunflowers'), line('pot_ceramic')],
      discounts: { codes: ['welcome20'] },
    });
    expect(body.discounts).toEqual({
      codes: ['welcome20'],
      applied: [
        {
          code: 'welcome20',
          title: '20% Off',
          amount: 800,
          automatic: false,
          method: 'across',
          priority: 1,
          allocations: [
            { path: '$.line_items[0]', amount: 500 },
            { path: '$.line_items[1]', amount: 300 },
          ],
        },
      ],
    });
    expect(body.line_items.map((l: any) => l.totals)).toEqual([
      [
        { type: 'subtotal', amount: 2500 },
        { type: 'items_discount', amount: -500 },
        { type: 'total', amount: 2000 },
      ],
      [
        { type: 'subtotal', amount: 1500 },
        { type: 'items_discount', amount: -300 },
        { type: 'total', amount: 1200 },
      ],
    ]);
    expect(body.totals).toEqual([
      { type: 'subtotal', amount: 4000 },
      { type: 'items_discount', amount: -800 },
      { type: 'total', amount: 3200 },
    ]);
    expect(body.continue_url).toBe(`${STOREFRONT}/cart/bouquet_sunflowers:1,pot_ceramic:1?discount=welcome20&ref=${body.id}`);
  });

  it('codes replace the stored ones; an update without discounts keeps them; [] clears them', async () => {
    const created = (await client().create({ line_items: [line('pot_ceramic', 2)], discounts: { codes: ['10OFF'] } })).body;
    const replaced = (await client().update(created.id, { line_items: [line('pot_ceramic', 2)], discounts: { codes: ['FIXED500'] } })).body;
    expect([replaced.discounts.codes, replaced.discounts.applied.map((d: any) => [d.code, d.amount])]).toEqual([
      ['FIXED500'],
      [['FIXED500', 500]],
    ]);
    const kept = (await client().update(created.id, { line_items: [line('pot_ceramic', 3)] })).body;
    expect([kept.discounts.codes, kept.discounts.applied.map((d: any) => [d.code, d.amount])]).toEqual([['FIXED500'], [['FIXED500', 500]]]);
    const cleared = (await client().update(created.id, { line_items: [line('pot_ceramic', 3)], discounts: { codes: [] } })).body;
    expect(cleared.discounts).toEqual({ codes: [], applied: [] });
    expect(cleared.totals).toEqual([
      { type: 'subtotal', amount: 4500 },
      { type: 'total', amount: 4500 },
    ]);
  });

  it('rejects codes with warnings pointing at each code entry, and echoes them all', async () => {
    const codes = ['SPRING2025', 'WHATEVER', '10OFF', '10off', 'MEMBER15', 'ROSES15', 'SOLO25'];
    const { body } = await client().create({ line_items: [line('pot_ceramic', 4)], discounts: { codes } });
    expect(body.discounts.codes).toEqual(codes);
    expect(body.discounts.applied.map((d: any) => d.code)).toEqual(['10OFF']);
    expect(warnings(body)).toEqual([
      { type: 'warning', code: 'discount_code_expired', path: '$.discounts.codes[0]', content: 'Code "SPRING2025" has expired.' },
      {
        type: 'warning',
        code: 'discount_code_invalid',
        path: '$.discounts.codes[1]',
        content: 'Code "WHATEVER" is not a valid discount code.',
      },
      { type: 'warning', code: 'discount_code_already_applied', path: '$.discounts.codes[3]', content: 'Code "10off" is already applied.' },
      {
        type: 'warning',
        code: 'discount_code_user_not_logged_in',
        path: '$.discounts.codes[4]',
        content: 'Code "MEMBER15" needs a signed-in buyer.',
      },
      {
        type: 'warning',
        code: 'discount_code_not_applicable',
        path: '$.discounts.codes[5]',
        content: 'Code "ROSES15" does not apply to this cart. No item in the cart qualifies.',
      },
      {
        type: 'warning',
        code: 'discount_code_combination_disallowed',
        path: '$.discounts.codes[6]',
        content: 'Code "SOLO25" cannot be combined with another active discount. SOLO25 cannot be combined with 10OFF.',
      },
    ]);
  });

  it('an individual-use code submitted first keeps the later codes out', async () => {
    const { body } = await client().create({ line_items: [line('pot_ceramic', 4)], discounts: { codes: ['SOLO25', '10OFF'] } });
    expect(body.discounts.applied.map((d: any) => [d.code, d.amount])).toEqual([['SOLO25', 1500]]);
    expect(warnings(body).map((m: any) => [m.code, m.path])).toEqual([['discount_code_combination_disallowed', '$.discounts.codes[1]']]);
  });

  it('stacks by priority, automatic first, each on what the earlier left; `each` discounts per line', async () => {
    const { body } = await client().create({
      line_items: [line('bouquet_tulips', 2), line('bouquet_roses', 1)],
      discounts: { codes: ['ROSES15', '10OFF'] },
    });
    expect(body.discounts.applied.map((d: any) => [d.code ?? d.title, d.amount, d.automatic, d.method, d.priority, d.allocations])).toEqual(
      [
        ['10% off tulips when you buy 2 or more', 600, true, 'each', 1, [{ path: '$.line_items[0]', amount: 600 }]],
        ['ROSES15', 525, false, 'each', 2, [{ path: '$.line_items[1]', amount: 525 }]],
        // 10% of what is left: 5400 tulips + 2975 roses.
        [
          '10OFF',
          838,
          false,
          'across',
          3,
          [
            { path: '$.line_items[0]', amount: 540 },
            { path: '$.line_items[1]', amount: 298 },
          ],
        ],
        // Free shipping on the roses reduces nothing on a cart (no shipping priced): not listed.
      ],
    );
    expect(body.totals).toEqual([
      { type: 'subtotal', amount: 9500 },
      { type: 'items_discount', amount: -1963 },
      { type: 'total', amount: 7537 },
    ]);
  });

  it('automatic discounts are always listed, without a code, and clearing codes does not remove them', async () => {
    const created = (await client().create({ line_items: [line('bouquet_tulips', 2)] })).body;
    const automatic = {
      title: '10% off tulips when you buy 2 or more',
      amount: 600,
      automatic: true,
      method: 'each',
      priority: 1,
      allocations: [{ path: '$.line_items[0]', amount: 600 }],
    };
    expect(created.discounts).toEqual({ codes: [], applied: [automatic] });
    const cleared = (await client().update(created.id, { line_items: [line('bouquet_tulips', 2)], discounts: { codes: [] } })).body;
    expect(cleared.discounts).toEqual({ codes: [], applied: [automatic] });
  });

  it('an accepted eligibility claim gives a provisional automatic discount carrying it; others give nothing but a warning', async () => {
    const { body } = await client().create({
      line_items: [line('pot_ceramic')],
      context: { eligibility: ['com.example.veteran', 'com.example.student'] },
    });
    expect(body.discounts.applied).toEqual([
      {
        title: 'Student discount 10%',
        amount: 150,
        automatic: true,
        method: 'across',
        priority: 1,
        provisional: true,
        eligibility: 'com.example.student',
        allocations: [{ path: '$.line_items[0]', amount: 150 }],
      },
    ]);
    expect(warnings(body)).toEqual([
      {
        type: 'warning',
        code: 'eligibility_not_accepted',
        path: '$.context.eligibility[0]',
        content: expect.stringContaining('"com.example.veteran"'),
      },
    ]);
    expect(body.messages.filter((m: any) => m.type === 'error')).toEqual([]);
  });

  it('free shipping reduces nothing on a cart (it prices no shipping): the code is kept, without a warning, but not applied', async () => {
    const { body } = await client().create({ line_items: [line('pot_ceramic')], discounts: { codes: ['FREESHIP'] } });
    expect(body.discounts).toEqual({ codes: ['FREESHIP'], applied: [] });
    expect(warnings(body)).toEqual([]);
    expect(body.totals.map((t: any) => t.type)).toEqual(['subtotal', 'total']);
  });

  it('an automatic promotion that reduces nothing yet is not listed (rose bouquets ship free, but a cart prices no shipping)', async () => {
    const { body } = await client().create({ line_items: [line('bouquet_roses')] });
    expect(body.discounts.applied).toEqual([]);
  });

  it('without the extension the caller sees no discounts member, its codes and claims are ignored; automatic discounts count', async () => {
    const plain = gw.client(transport, NO_DISCOUNT);
    const created = (
      await plain.create({
        line_items: [line('bouquet_tulips', 2)],
        discounts: { codes: ['10OFF', 'WHATEVER'] },
        context: { eligibility: ['com.example.student'] },
      })
    ).body;
    expect(created.proto.capabilities['dev.proto.shopping.discount']).toBeUndefined();
    expect(created.discounts).toBeUndefined();
    // No code rejections; the claim is not priced (no provisional discount to show), and the platform is told.
    expect(warnings(created).map((m: any) => [m.code, m.path])).toEqual([['eligibility_not_accepted', '$.context.eligibility[0]']]);
    expect(created.totals).toEqual([
      { type: 'subtotal', amount: 6000 },
      { type: 'items_discount', amount: -600 },
      { type: 'total', amount: 5400 },
    ]);
    const updated = (await plain.update(created.id, { line_items: [line('bouquet_tulips', 2)], discounts: { codes: ['FIXED500'] } })).body;
    expect(updated.totals).toEqual(created.totals);
  });
});
