import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FulfillmentMethodRequest, QuoteRequest } from '../../../adapters/contract.js';
import { CHICAGO, demoStore, NEW_YORK, PARIS, TORONTO } from './fixtures.js';

const { adapter } = await demoStore();
const variantIds = (await adapter.search({ limit: 50 })).products.flatMap((p) => p.variants.map((v) => v.id));
const codes = [
  '10OFF',
  'welcome20',
  'FIXED500',
  'ROSES15',
  'TULIP200',
  'SPRING2025',
  'SOLO25',
  'MEMBER15',
  'FRIENDS30',
  'BIG50',
  'FREESHIP',
  'nope',
];
const optionIds = ['std-ship', 'exp-ship-us', 'exp-ship-intl', 'ca-std', 'ca-exp', 'pickup-loop', 'pickup-evanston'];

const lines = fc.array(fc.record({ variantId: fc.constantFrom(...variantIds, 'ghost'), quantity: fc.integer({ min: 0, max: 30 }) }), {
  minLength: 1,
  maxLength: 6,
});
const destination = fc.oneof(
  fc.constantFrom(CHICAGO, NEW_YORK, TORONTO, PARIS).map((address) => ({ address })),
  fc.constantFrom('loop', 'evanston').map((locationId) => ({ locationId })),
);

const quoteRequest = fc
  .record({
    lines,
    codes: fc.array(fc.constantFrom(...codes), { maxLength: 4 }),
    identity: fc.option(fc.constantFrom('cust_1', 'cust_2', 'cust_3'), { nil: undefined }),
    student: fc.boolean(),
    fulfillment: fc.option(
      fc.record({
        multiGroup: fc.boolean(),
        methods: fc.array(
          fc.record({
            type: fc.constantFrom('shipping', 'pickup'),
            destination: fc.option(destination, { nil: undefined }),
            option: fc.constantFrom(...optionIds),
          }),
          {
            minLength: 1,
            maxLength: 2,
          },
        ),
      }),
      { nil: undefined },
    ),
  })
  .map(({ lines: ls, codes: cs, identity, student, fulfillment }): QuoteRequest => {
    const lineIds = ls.map((_, i) => `l${i + 1}`);
    return {
      lines: ls.map((l, i) => ({ lineId: lineIds[i]!, ...l })),
      discountCodes: cs,
      ...(identity && { identity: { customerId: identity } }),
      ...(student && { eligibilityClaims: ['com.example.student'] }),
      ...(fulfillment && {
        fulfillment: {
          multiGroup: fulfillment.multiGroup,
          // Lines are dealt to the methods in turn; every group selects the same option id.
          methods: fulfillment.methods.map((m, k): FulfillmentMethodRequest => ({
            methodId: `m${k}`,
            type: m.type,
            lineIds: lineIds.filter((_, i) => i % fulfillment.methods.length === k),
            ...(m.destination && { destination: m.destination }),
            selectedOptions: { all: m.option, florist: m.option, warehouse: m.option },
          })),
        },
      }),
    };
  });

describe('demo store totals', () => {
  it('add up exactly on random carts, codes, buyers and fulfillment', async () => {
    await fc.assert(
      fc.asyncProperty(quoteRequest, async (req) => {
        const q = await adapter.quote(req);
        const { subtotal, itemsDiscount, discount, shipping, tax, total } = q.totals;
        expect(total).toBe(subtotal - itemsDiscount - discount + (shipping ?? 0) + (tax ?? 0));
        expect(subtotal).toBe(q.lines.reduce((s, l) => s + l.unitPrice * l.quantity, 0));
        expect(total).toBeGreaterThanOrEqual(0);

        const allocations = q.discounts.applied.flatMap((d) => d.allocations);
        for (const d of q.discounts.applied) {
          expect(d.amount).toBe(d.allocations.reduce((s, a) => s + a.amount, 0));
          expect(d.allocations.every((a) => Number.isInteger(a.amount) && a.amount > 0)).toBe(true);
        }
        expect(q.discounts.applied.map((d) => d.priority)).toEqual(q.discounts.applied.map((_, i) => i + 1));
        expect(itemsDiscount).toBe(allocations.filter((a) => a.target.kind === 'line').reduce((s, a) => s + a.amount, 0));
        for (const line of q.lines) {
          const off = allocations
            .filter((a) => a.target.kind === 'line' && a.target.lineId === line.lineId)
            .reduce((s, a) => s + a.amount, 0);
          expect(off).toBeLessThanOrEqual(line.subtotal);
        }
        for (const method of q.fulfillment ?? []) {
          for (const group of method.groups) {
            const price = group.options.find((o) => o.id === group.selectedOptionId)?.amount ?? 0;
            const off = allocations
              .filter((a) => a.target.kind === 'shipping' && a.target.methodId === method.methodId && a.target.groupKey === group.key)
              .reduce((s, a) => s + a.amount, 0);
            expect(off).toBeLessThanOrEqual(price);
          }
        }
        expect(q.taxLines.reduce((s, t) => s + t.amount, 0)).toBe(tax ?? 0);

        // Every submitted code is either applied or rejected, once.
        const appliedCodes = q.discounts.applied.flatMap((d) => (d.code === undefined ? [] : [d.code]));
        expect(appliedCodes.length + q.discounts.rejected.length).toBe(req.discountCodes.length);
        // Every requested line is either priced or has a problem that keeps it out.
        const excluded = q.lineProblems.filter((p) => p.code !== 'insufficient_stock').map((p) => p.lineId);
        expect(q.lines.length + excluded.length).toBe(req.lines.length);
      }),
      { numRuns: 300 },
    );
  });
});
