/**
 * Cart user errors as Shopify words them: `CartUserError.field` is "The path to the input field
 * that caused the error" (Storefront 2026-10), so a line refused by `cartLinesAdd(lines:)` is
 * `["lines", "1", "merchandiseId"]` and by `cartCreate(input:)` `["input", "lines", "1", "merchandiseId"]`.
 */
import { describe, expect, it } from 'vitest';
import { refusedLineIndices } from '../../../adapters/shopify/cart-sync.js';

const refused = (field: string[]) => ({ field, message: 'The merchandise is not applicable.', code: 'MERCHANDISE_NOT_APPLICABLE' });

describe('a cart line Shopify refused', () => {
  it('is found by its index whether the path starts at the argument `lines` or at `input`', () => {
    expect(refusedLineIndices([refused(['lines', '1', 'merchandiseId'])])).toEqual([1]);
    expect(refusedLineIndices([refused(['input', 'lines', '2', 'merchandiseId']), refused(['input', 'lines', '0', 'quantity'])])).toEqual([
      2, 0,
    ]);
    expect(refusedLineIndices([refused(['cartId']), { field: null, message: 'Internal', code: null }])).toEqual([]);
  });
});
