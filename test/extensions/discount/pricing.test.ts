/**
 * The pricing and discount modules checkout builds on, against the demo store: identities the
 * API cannot supply yet (a verified buyer), and the shaping rules that hold for any backend.
 */
import { describe, expect, it } from 'vitest';
import type { AppliedDiscount, BuyerIdentity } from '../../../adapters/contract.js';
import { quoteRequest, type PricingInput } from '../../../src/capabilities/pricing/quote-request.js';
import { lineAllocationPath } from '../../../src/extensions/allocation-path.js';
import { renderApplied } from '../../../src/extensions/discount/applied.js';
import { rejectionMessages } from '../../../src/extensions/discount/rejections.js';
import { demoStore } from '../../adapters/memory/fixtures.js';

const { adapter } = await demoStore();

const input = (extra: Partial<PricingInput> = {}): PricingInput => ({
  lines: [{ id: 'l1', itemId: 'pot_ceramic', quantity: 2 }],
  discountCodes: [],
  eligibility: true,
  currencies: adapter.capabilities.currencies,
  ...extra,
});

const priceWith = async (identity: BuyerIdentity | undefined, codes: string[]) => {
  const quote = await adapter.quote(quoteRequest(input({ identity, discountCodes: codes })).request);
  return { applied: quote.discounts.applied.map((d) => [d.code, d.amount]), messages: rejectionMessages(quote.discounts.rejected) };
};

describe('codes for a verified buyer (QuoteRequest.identity)', () => {
  it('a customer-only code is user_ineligible for another customer', async () => {
    expect(await priceWith({ customerId: 'cust_2' }, ['FRIENDS30'])).toEqual({
      applied: [],
      messages: [
        {
          type: 'warning',
          code: 'discount_code_user_ineligible',
          path: '$.discounts.codes[0]',
          content: 'Code "FRIENDS30" is not available to this buyer.',
        },
      ],
    });
  });

  it('applies to the customer it names, or to the one whose verified email it names', async () => {
    expect((await priceWith({ customerId: 'cust_1' }, ['FRIENDS30'])).applied).toEqual([['FRIENDS30', 900]]);
    expect((await priceWith({ customerId: 'cust_3' }, ['FRIENDS30'])).applied).toEqual([['FRIENDS30', 900]]);
  });

  it('a login-only code is user_not_logged_in for a guest and applies for any signed-in buyer', async () => {
    expect((await priceWith(undefined, ['MEMBER15'])).messages.map((m) => m.code)).toEqual(['discount_code_user_not_logged_in']);
    expect((await priceWith({ customerId: 'cust_2' }, ['MEMBER15'])).applied).toEqual([['MEMBER15', 450]]);
  });

  it('a typed buyer email is never taken for a verified one', async () => {
    const quote = await adapter.quote(
      quoteRequest(input({ buyer: { email: 'jane.doe@example.com' }, discountCodes: ['FRIENDS30'] })).request,
    );
    expect(rejectionMessages(quote.discounts.rejected).map((m) => m.code)).toEqual(['discount_code_user_not_logged_in']);
  });
});

describe('quote requests', () => {
  it('carry lines, codes, buyer contact and a normalized location hint', () => {
    const { request, notices } = quoteRequest(
      input({
        discountCodes: ['10off'],
        buyer: { email: 'ann@example.com', first_name: 'Ann', phone_number: '+1 312 555 0100' },
        context: {
          address_country: 'ca',
          address_region: 'CA-on',
          postal_code: ' M5J 2X5 ',
          currency: 'USD',
          eligibility: ['com.example.student'],
        },
      }),
    );
    expect(request).toEqual({
      currency: 'USD',
      lines: [{ lineId: 'l1', variantId: 'pot_ceramic', quantity: 2 }],
      buyer: { email: 'ann@example.com', firstName: 'Ann', phone: '+1 312 555 0100' },
      location: { country: 'CA', region: 'ON', postalCode: 'M5J 2X5' },
      discountCodes: ['10off'],
      eligibilityClaims: ['com.example.student'],
    });
    expect(notices).toEqual([]);
  });

  it('leave out claims when the caller cannot be shown provisional discounts, and locations that are not codes', () => {
    const { request } = quoteRequest(
      input({ eligibility: false, context: { address_country: 'United States', eligibility: ['com.example.student'] } }),
    );
    expect(request.eligibilityClaims).toBeUndefined();
    expect(request.location).toBeUndefined();
    expect(quoteRequest(input({ context: { address_country: 'US', address_region: 'Illinois' } })).request.location).toEqual({
      country: 'US',
    });
  });

  it('fall back to the store currency with a notice', () => {
    const { request, notices } = quoteRequest(input({ context: { currency: 'JPY' } }));
    expect(request.currency).toBe('USD');
    expect(notices.map((n) => [n.type, n.code, n.path])).toEqual([['info', 'currency_not_supported', '$.context.currency']]);
  });
});

describe('applied discounts', () => {
  const discount = (allocations: AppliedDiscount['allocations']): AppliedDiscount => ({
    title: 'Spring',
    amount: allocations.reduce((s, a) => s + a.amount, 0),
    automatic: true,
    method: 'across',
    priority: 1,
    allocations,
  });
  const paths = lineAllocationPath(new Map([['l1', '$.line_items[0]']]));

  it('allocations to lines get the line path', () => {
    expect(renderApplied([discount([{ target: { kind: 'line', lineId: 'l1' }, amount: 70 }])], paths)[0]!.allocations).toEqual([
      { path: '$.line_items[0]', amount: 70 },
    ]);
  });

  it('a discount on the order as a whole is unallocated: no allocations that would not sum to its amount', () => {
    const [rendered] = renderApplied(
      [
        discount([
          { target: { kind: 'line', lineId: 'l1' }, amount: 70 },
          { target: { kind: 'order' }, amount: 30 },
        ]),
      ],
      paths,
    );
    expect(rendered).toEqual({ title: 'Spring', amount: 100, automatic: true, method: 'across', priority: 1 });
  });
});
