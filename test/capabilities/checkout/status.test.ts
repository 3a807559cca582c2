/** The status machine's decision, on its own: which status, and which messages say why. */
import { describe, expect, it } from 'vitest';
import type { Quote, QuotedLine } from '../../../adapters/contract.js';
import { evaluate, type StatusRules } from '../../../src/capabilities/checkout/status.js';
import { fulfillmentExtension } from '../../../src/extensions/fulfillment/extension.js';
import type { StoredMethod } from '../../../src/extensions/fulfillment/method-record.js';
import { rulesOf } from '../../../src/extensions/steps.js';
import { errorMessage } from '../../../src/protocol/messages.js';

const pot: QuotedLine = {
  lineId: 'l1',
  variantId: 'pot',
  productId: 'pot',
  title: 'Pot',
  unitPrice: 1500,
  quantity: 1,
  requiresShipping: true,
  fulfillableOn: 'now',
  subtotal: 1500,
};
const ebook: QuotedLine = { ...pot, lineId: 'l2', variantId: 'ebook', productId: 'ebook', title: 'E-book', requiresShipping: false };

function quote(overrides: Partial<Quote> = {}, totals: Partial<Quote['totals']> = {}): Quote {
  return {
    currency: 'USD',
    lines: [pot],
    lineProblems: [],
    discounts: { applied: [], rejected: [] },
    fulfillment: [
      {
        methodId: 'shipping_1',
        type: 'shipping',
        lineIds: ['l1'],
        groups: [{ key: 'all', lineIds: ['l1'], options: [], selectedOptionId: 'std' }],
      },
    ],
    availableMethods: [],
    taxLines: [],
    totals: { subtotal: 1500, itemsDiscount: 0, discount: 0, shipping: 500, tax: 94, total: 2094, ...totals },
    ...overrides,
  };
}

const shipping: StoredMethod = {
  id: 'shipping_1',
  type: 'shipping',
  destinations: [{ id: 'dest_1', address: { address_country: 'US', address_region: 'IL' } }],
  selectedDestinationId: 'dest_1',
  selections: { all: 'std' },
};
const session = { buyer: { email: 'ann@example.com' }, discountCodes: [], fulfillment: [shipping] };
/** With the fulfillment extension active; without it, no active extension lets the platform choose delivery. */
const rules: StatusRules = { requiredBuyerFields: ['email'], extensions: rulesOf([fulfillmentExtension.checkout!]) };
const withoutFulfillment: StatusRules = { ...rules, extensions: rulesOf([]) };
const paths = (e: ReturnType<typeof evaluate>) => e.messages.map((m) => [m.code, m.severity, m.path]);

describe('evaluate', () => {
  it('ready_for_complete when nothing is missing, with no message', () => {
    expect(evaluate(session, quote(), rules)).toEqual({ status: 'ready_for_complete', messages: [] });
  });

  it('incomplete while something the platform can send is missing, each recoverable with its path', () => {
    const noSelection = quote(
      {
        fulfillment: [
          { methodId: 'shipping_1', type: 'shipping', lineIds: ['l1'], groups: [{ key: 'all', lineIds: ['l1'], options: [] }] },
        ],
      },
      { shipping: null },
    );
    const before = evaluate({ ...session, buyer: {} }, noSelection, rules);
    expect(before.status).toBe('incomplete');
    expect(paths(before)).toEqual([
      ['missing', 'recoverable', '$.buyer.email'],
      ['missing', 'recoverable', '$.fulfillment.methods[0].groups[0].selected_option_id'],
    ]);
    expect(evaluate({ ...session, buyer: {} }, quote(), rules)).toEqual({
      status: 'incomplete',
      messages: [errorMessage('missing', expect.any(String) as never, 'recoverable', '$.buyer.email')],
    });
  });

  it('incomplete while a line cannot be bought as requested (its message comes with the line)', () => {
    expect(evaluate(session, quote({ lineProblems: [{ lineId: 'l1', code: 'insufficient_stock', available: 0 }] }), rules)).toEqual({
      status: 'incomplete',
      messages: [],
    });
  });

  it('incomplete without lines, and while tax cannot be told', () => {
    expect(paths(evaluate(session, quote({ lines: [], fulfillment: [] }, { tax: 0 }), rules))).toEqual([
      ['missing', 'recoverable', '$.line_items'],
    ]);
    const digital = quote({ lines: [ebook], fulfillment: [] }, { tax: null, shipping: 0 });
    expect(paths(evaluate({ ...session, fulfillment: [] }, digital, rules))).toEqual([
      ['missing', 'recoverable', '$.context.address_country'],
    ]);
    const noRegion = { ...shipping, destinations: [{ id: 'dest_1', address: { address_country: 'US' } }] };
    expect(paths(evaluate({ ...session, fulfillment: [noRegion] }, quote({}, { tax: null }), rules))).toEqual([
      ['missing', 'recoverable', '$.fulfillment.methods[0].destinations[0].address_region'],
    ]);
  });

  it('a message that needs the buyer makes it requires_escalation: a pending review, a pending escalation', () => {
    const review = errorMessage('price_changed', 'The totals changed.', 'requires_buyer_review', '$.totals');
    expect(evaluate({ ...session, review: [review] }, quote(), rules)).toEqual({ status: 'requires_escalation', messages: [review] });
    const noEmail = evaluate({ ...session, buyer: {}, review: [review] }, quote(), rules);
    expect([noEmail.status, paths(noEmail)]).toEqual([
      'requires_escalation',
      [
        ['missing', 'recoverable', '$.buyer.email'],
        ['price_changed', 'requires_buyer_review', '$.totals'],
      ],
    ]);
    const escalation = {
      message: errorMessage('buyer_action_required', 'Confirm on the store page.', 'requires_buyer_input'),
      continueUrl: 'https://shop.example/cart/pot:1',
    };
    expect(evaluate({ ...session, escalation }, quote(), rules)).toEqual({ status: 'requires_escalation', messages: [escalation.message] });
  });

  it('physical lines for a platform without the fulfillment extension need the store page', () => {
    const result = evaluate(
      { ...session, fulfillment: [] },
      quote({ fulfillment: undefined }, { shipping: null, tax: null }),
      withoutFulfillment,
    );
    expect([result.status, paths(result)]).toEqual([
      'requires_escalation',
      [['fulfillment_unsupported', 'requires_buyer_input', undefined]],
    ]);
  });
});
