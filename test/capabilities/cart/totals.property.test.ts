/**
 * The totals invariants of spec part 1 §4.4 on randomized carts, end to end through the
 * gateway and the demo store: random lines (unknown, sold out, above stock, bad quantities),
 * random codes and eligibility claims, with and without a buyer location, over REST and MCP.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartGateway, type CartGateway, type Transport } from './cart-gateway.js';

let gw: CartGateway;
beforeAll(async () => {
  gw = await cartGateway();
});
afterAll(() => gw.close());

const ITEMS = [
  'bouquet_roses',
  'pot_ceramic',
  'bouquet_sunflowers',
  'bouquet_tulips',
  'orchid_white',
  'gardenias',
  'florist_tee_s_green',
  'florist_tee_m_green',
  'florist_tee_l_green',
  'florist_tee_m_white',
  'florist_tee_l_white',
  'ebook_flower_care',
  'vase_glass',
  'bouquet_peonies',
  'wreath_holiday',
  'no_such_item',
];
const CODES = [
  '10OFF',
  '10off',
  'WELCOME20',
  'FIXED500',
  'ROSES15',
  'TULIP200',
  'SPRING2025',
  'SOLO25',
  'MEMBER15',
  'FRIENDS30',
  'BIG50',
  'FREESHIP',
  'WHATEVER',
];
const PLACES = [
  { address_country: 'US', address_region: 'IL' },
  { address_country: 'US', address_region: 'NY' },
  { address_country: 'CA', address_region: 'ON' },
  { address_country: 'FR' },
  { address_country: 'US' },
];

const cartArb = fc.record({
  transport: fc.constantFrom<Transport>('rest', 'mcp'),
  line_items: fc.array(
    fc.record({
      item: fc.record({ id: fc.constantFrom(...ITEMS) }),
      quantity: fc.oneof(fc.integer({ min: -1, max: 6 }), fc.constant(801)),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  codes: fc.array(fc.constantFrom(...CODES), { maxLength: 4 }),
  place: fc.option(fc.constantFrom(...PLACES), { nil: undefined }),
  eligibility: fc.option(fc.constantFrom(['com.example.student'], ['com.example.veteran']), { nil: undefined }),
});

const amountOf = (totals: Array<{ type: string; amount: number }>, type: string) =>
  totals.filter((t) => t.type === type).reduce((s, t) => s + t.amount, 0);
const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);

function checkInvariants(cart: any, codes: string[]): void {
  const lines: any[] = cart.line_items;
  for (const line of lines) {
    expect(amountOf(line.totals, 'subtotal')).toBe(line.item.price * line.quantity);
    expect(amountOf(line.totals, 'total')).toBe(amountOf(line.totals, 'subtotal') + amountOf(line.totals, 'items_discount'));
  }
  const totals: Array<{ type: string; amount: number }> = cart.totals;
  expect(amountOf(totals, 'subtotal')).toBe(sum(lines.map((l) => amountOf(l.totals, 'subtotal'))));
  // items_discount of the cart is the sum of the lines' items_discount.
  expect(amountOf(totals, 'items_discount')).toBe(sum(lines.map((l) => amountOf(l.totals, 'items_discount'))));
  for (const t of totals) if (t.type === 'items_discount' || t.type === 'discount') expect(t.amount).toBeLessThan(0);
  // total adds up exactly.
  expect(amountOf(totals, 'total')).toBe(sum(totals.filter((t) => t.type !== 'total').map((t) => t.amount)));

  const applied: any[] = cart.discounts.applied;
  expect(applied.map((d) => d.priority)).toEqual(applied.map((_, i) => i + 1));
  const perLine = new Map<string, number>();
  for (const d of applied) {
    expect(d.amount).toBeGreaterThan(0);
    expect(d.title).toEqual(expect.any(String));
    expect(['each', 'across']).toContain(d.method);
    expect(d.automatic).toBe(d.code === undefined);
    if (d.provisional) expect([d.automatic, d.eligibility]).toEqual([true, 'com.example.student']);
    expect(sum(d.allocations.map((a: any) => a.amount))).toBe(d.amount);
    for (const a of d.allocations) {
      expect(a.path).toMatch(/^\$\.line_items\[\d+\]$/);
      perLine.set(a.path, (perLine.get(a.path) ?? 0) + a.amount);
    }
  }
  lines.forEach((line, k) => expect(0 - amountOf(line.totals, 'items_discount')).toBe(perLine.get(`$.line_items[${k}]`) ?? 0));
  // Applied amounts are magnitudes; their total entries carry the sign.
  expect(sum(applied.map((d) => d.amount))).toBe(0 - (amountOf(totals, 'items_discount') + amountOf(totals, 'discount')));

  // Every submitted code is echoed; each is applied (as sent), rejected with its path, or reduces nothing
  // yet and is not listed (free shipping: a cart prices no shipping).
  expect(cart.discounts.codes).toEqual(codes);
  const rejected = new Set<number>(
    (cart.messages ?? [])
      .filter((m: any) => m.code.startsWith('discount_code_'))
      .map((m: any) => Number(/^\$\.discounts\.codes\[(\d+)\]$/.exec(m.path)![1])),
  );
  const appliedCodes = applied.filter((d) => d.code !== undefined).map((d) => d.code);
  expect(appliedCodes.sort()).toEqual(codes.filter((code, i) => !rejected.has(i) && code !== 'FREESHIP').sort());
}

describe('cart totals on randomized carts', () => {
  it('hold the §4.4 invariants, on create and on update', async () => {
    await fc.assert(
      fc.asyncProperty(cartArb, cartArb, async (first, second) => {
        const client = gw.client(first.transport);
        const body = (input: typeof first) => ({
          line_items: input.line_items,
          discounts: { codes: input.codes },
          ...((input.place || input.eligibility) && {
            context: { ...input.place, ...(input.eligibility && { eligibility: input.eligibility }) },
          }),
        });
        const created = (await client.create(body(first))).body;
        if (created.proto.status === 'error') {
          // No cart: only when no line could be bought.
          expect(created.id).toBeUndefined();
          expect(created.messages.every((m: any) => ['not_found', 'invalid_quantity', 'out_of_stock'].includes(m.code))).toBe(true);
          return;
        }
        checkInvariants(created, first.codes);
        const updated = (await gw.client(second.transport).update(created.id, body(second))).body;
        checkInvariants(updated, second.codes);
      }),
      { numRuns: 60 },
    );
  });
});
