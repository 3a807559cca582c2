/** Whatever a platform sends to checkout, it gets a clear 4xx or a business outcome: never a 5xx. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutGateway, line, type CheckoutGateway } from './checkout-gateway.js';

let gw: CheckoutGateway;
let id: string;
beforeAll(async () => {
  gw = await checkoutGateway();
  id = (await gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body.id;
});
afterAll(() => gw.close());

describe('malformed checkout payloads', () => {
  it('name the offending member', async () => {
    const rest = gw.client('rest');
    const cases: Array<[unknown, string]> = [
      [{ line_items: [line('pot_ceramic')], fulfillment: { methods: [{ type: 'Shipping!' }] } }, '$.fulfillment.methods[0].type'],
      [
        { line_items: [line('pot_ceramic')], fulfillment: { methods: [{ type: 'shipping', destinations: {} }] } },
        '$.fulfillment.methods[0].destinations',
      ],
      [
        { line_items: [line('pot_ceramic')], fulfillment: { methods: [{ type: 'shipping', groups: [{ selected_option_id: 7 }] }] } },
        '$.fulfillment.methods[0].groups[0].selected_option_id',
      ],
      [{ line_items: [line('pot_ceramic')], payment: { instruments: [{ type: 'card' }] } }, '$.payment.instruments[0].handler_id'],
      [{ line_items: [line('pot_ceramic')], buyer: { email: 'not an email' } }, '$.buyer.email'],
    ];
    for (const [payload, path] of cases) {
      const reply = await rest.update(id, payload);
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe('invalid_request');
      expect(reply.body.content.startsWith(`${path} `)).toBe(true);
    }
    const complete = await rest.complete(id, {
      payment: { instruments: [{ handler_id: 'sandbox', type: 'card', credential: { type: 'x' } }] },
    });
    expect([complete.status, complete.body.content]).toEqual([400, '$.payment.instruments[0].credential.token is required']);
  });

  it('arbitrary bodies and ids never give a 5xx', async () => {
    const method = fc.record(
      {
        id: fc.string(),
        type: fc.constantFrom('shipping', 'pickup', 'drone'),
        line_item_ids: fc.array(fc.string(), { maxLength: 3 }),
        destinations: fc.array(
          fc.record({ id: fc.string(), address_country: fc.string(), address_region: fc.string() }, { requiredKeys: [] }),
          { maxLength: 3 },
        ),
        selected_destination_id: fc.oneof(fc.string(), fc.constant(null), fc.constantFrom('loop', 'evanston')),
        groups: fc.array(
          fc.record(
            { id: fc.string(), selected_option_id: fc.oneof(fc.string(), fc.constant(null), fc.constantFrom('std-ship', 'pickup-loop')) },
            { requiredKeys: [] },
          ),
          { maxLength: 2 },
        ),
      },
      { requiredKeys: ['type'] },
    );
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({
        line_items: fc.array(
          fc.record({
            item: fc.record({ id: fc.constantFrom('pot_ceramic', 'bouquet_roses', 'nope') }),
            quantity: fc.integer({ min: -3, max: 5 }),
          }),
          { maxLength: 3 },
        ),
        fulfillment: fc.record({ methods: fc.array(method, { maxLength: 3 }) }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom('update', 'complete', 'create'),
        fc.oneof(fc.constant(id), fc.string({ maxLength: 250 })),
        async (payload, op, target) => {
          const rest = gw.client('rest');
          const reply =
            op === 'create'
              ? await rest.create(payload)
              : op === 'update'
                ? await rest.update(target || 'x', payload)
                : await rest.complete(target || 'x', payload);
          expect(reply.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
  });
});
