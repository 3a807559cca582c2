/**
 * The checkout's line ids on the order of a store that keeps only its own line ids and SKUs
 * (src/capabilities/order/checkout-lines.ts): matched by variant, else by SKU, each checkout line
 * once; what matches nothing keeps the store's id.
 */
import { describe, expect, it } from 'vitest';
import type { OrderLine, OrderSnapshot } from '../../../adapters/contract.js';
import { withCheckoutLineIds } from '../../../src/capabilities/order/checkout-lines.js';

const line = (id: string, variantId: string, extra: Partial<OrderLine> = {}): OrderLine => ({
  id,
  variantId,
  productId: variantId,
  title: variantId,
  unitPrice: 100,
  quantity: { original: 1, current: 1, fulfilled: 0 },
  subtotal: 100,
  discount: 0,
  ...extra,
});
const order = (lines: OrderLine[]): OrderSnapshot => ({
  id: 'o1',
  currency: 'USD',
  createdAt: '2026-03-10T12:00:00Z',
  lines,
  expectations: [],
  events: [],
  adjustments: [],
  totals: { subtotal: 0, itemsDiscount: 0, discount: 0, shipping: 0, tax: 0, total: 0 },
});
const ids = (o: OrderSnapshot) => o.lines.map((l) => [l.id, l.checkoutLineId]);

describe('checkout line ids on store order lines', () => {
  const refs = [
    { id: 'li_a', variantId: 'v1', sku: 'SKU-1' },
    { id: 'li_b', variantId: 'v2', sku: 'SKU-2' },
    { id: 'li_c', variantId: 'v1' },
  ];

  it('matches by variant, each checkout line once, in order', () => {
    expect(ids(withCheckoutLineIds(order([line('s1', 'v1'), line('s2', 'v1'), line('s3', 'v2')]), refs))).toEqual([
      ['s1', 'li_a'],
      ['s2', 'li_c'],
      ['s3', 'li_b'],
    ]);
  });

  it('matches by SKU (any case) a line whose variant the store names otherwise', () => {
    expect(ids(withCheckoutLineIds(order([line('s1', 'store-v2', { sku: 'sku-2' })]), refs))).toEqual([['s1', 'li_b']]);
  });

  it('keeps what the store kept, and the store id of a line that matches nothing', () => {
    const kept = withCheckoutLineIds(order([line('s1', 'v2', { checkoutLineId: 'li_b' }), line('s2', 'v2'), line('s3', 'v9')]), refs);
    expect(ids(kept)).toEqual([
      ['s1', 'li_b'],
      ['s2', undefined],
      ['s3', undefined],
    ]);
  });

  it('changes nothing without the checkout lines, or when the store uses the checkout line ids', () => {
    const own = order([line('li_a', 'v1')]);
    expect(withCheckoutLineIds(own, undefined)).toBe(own);
    expect(ids(withCheckoutLineIds(own, refs))).toEqual([['li_a', undefined]]);
  });
});
