/**
 * Promotion codes on the real Medusa server. Medusa matches a code exactly as the promotion spells
 * it (core-flows get-promotion-codes-to-apply: a filter on `code`, then "The promotion code X is
 * invalid"), both to add and to remove one; the contract matches codes whatever their case.
 */
import { describe, expect, it } from 'vitest';
import { medusaCall, medusaStore } from '../../../helpers/medusa-store.js';
import { adapterFor, CHICAGO, lines, medusaCart, shippingRequest } from './fixtures.js';

const store = medusaStore();
const suite = store ? describe : describe.skip;

suite('promotion codes whatever their case (real Medusa server)', () => {
  it('a code typed in another case is applied as the store spells it, reported as the buyer typed it', async () => {
    const adapter = await adapterFor(store!);
    try {
      const quote = await adapter.quote(shippingRequest({ lines: lines(store!, { bouquet_roses: 2 }), discountCodes: ['10off'] }, CHICAGO));
      expect(quote.discounts.rejected).toEqual([]);
      expect(quote.discounts.applied).toMatchObject([{ code: '10off', amount: 700 }]);
      expect(quote.totals).toMatchObject({ subtotal: 7000, itemsDiscount: 700 });
    } finally {
      await adapter.close();
    }
  });

  it('a code the store spells in lower case is removed when the buyer drops it', async () => {
    const code = `spring${Date.now().toString(36)}`;
    await medusaCall(store!, 'admin', 'POST', '/admin/promotions', {
      code,
      type: 'standard',
      status: 'active',
      is_automatic: false,
      application_method: { type: 'percentage', target_type: 'items', allocation: 'across', value: 5 },
    });
    const adapter = await adapterFor(store!);
    try {
      const wanted = lines(store!, { bouquet_roses: 2 });
      const withCode = await adapter.quote(shippingRequest({ lines: wanted, discountCodes: [code.toUpperCase()] }, CHICAGO));
      expect(withCode.totals.itemsDiscount).toBe(350);
      const without = await adapter.quote(shippingRequest({ lines: wanted, discountCodes: [], handle: withCode.handle! }, CHICAGO));
      expect([without.discounts.applied, without.totals.itemsDiscount]).toEqual([[], 0]);
      expect((await medusaCart(store!, without.handle!)).discount_subtotal).toBe(0);
    } finally {
      await adapter.close();
    }
  });
});
