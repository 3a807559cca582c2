/**
 * The `proto` member of each answer (upstream 2026-04-08 "Response Capability Selection"): only
 * the capabilities in the negotiated intersection that are relevant to the operation (its root
 * capability and the extensions of that root), and on checkout answers the payment handlers the
 * checkout can be paid with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutGateway, line, type CheckoutGateway, type Transport } from '../capabilities/checkout/checkout-gateway.js';
import { protocolCaller } from '../helpers/protocol-client.js';

const CHECKOUT = 'dev.proto.shopping.checkout';
const CART = 'dev.proto.shopping.cart';
const DISCOUNT = 'dev.proto.shopping.discount';
const FULFILLMENT = 'dev.proto.shopping.fulfillment';
const SEARCH = 'dev.proto.shopping.catalog.search';
const LOOKUP = 'dev.proto.shopping.catalog.lookup';

const SANDBOX = { 'dev.proto.payments.sandbox': [{ id: 'sandbox', version: '2026-04-08', available_instruments: [{ type: 'card' }] }] };

const listed = (body: any) => Object.keys(body.proto.capabilities).sort();

let gw: CheckoutGateway;
beforeAll(async () => {
  gw = await checkoutGateway();
});
afterAll(() => gw.close());

describe.each<Transport>(['rest', 'mcp'])('capabilities listed in answers over %s', (transport) => {
  it('a checkout answer lists checkout and its extensions, with the payment handlers', async () => {
    const created = await gw.client(transport).create({ line_items: [line('bouquet_roses', 1)] });
    expect(listed(created.body)).toEqual([CHECKOUT, DISCOUNT, FULFILLMENT].sort());
    expect(created.body.proto.payment_handlers).toEqual(SANDBOX);
    const read = await gw.client(transport).get(created.body.id);
    expect(listed(read.body)).toEqual([CHECKOUT, DISCOUNT, FULFILLMENT].sort());
    expect(read.body.proto.payment_handlers).toEqual(SANDBOX);
  });

  it('a cart answer lists cart and discount, without payment handlers', async () => {
    const created = await gw.carts(transport).create({ line_items: [line('bouquet_roses', 1)] });
    expect(listed(created.body)).toEqual([CART, DISCOUNT].sort());
    expect(created.body.proto).not.toHaveProperty('payment_handlers');
  });

  it('catalog answers list their catalog capability and fulfillment', async () => {
    const { rest, mcp } = protocolCaller(gw, () => undefined);
    const search =
      transport === 'rest'
        ? await rest('POST', '/catalog/search', { query: 'roses' })
        : await mcp('search_catalog', { catalog: { query: 'roses' } });
    expect(listed(search.body)).toEqual([SEARCH, FULFILLMENT].sort());
    const lookup =
      transport === 'rest'
        ? await rest('POST', '/catalog/lookup', { ids: ['bouquet_roses'] })
        : await mcp('lookup_catalog', { catalog: { ids: ['bouquet_roses'] } });
    expect(listed(lookup.body)).toEqual([LOOKUP, FULFILLMENT].sort());
  });
});

describe('payment handlers of a store that finishes by handoff', () => {
  it('lists only the handoff handlers', async () => {
    const handoff = { id: 'store_checkout', name: 'dev.proto.payments.handoff', type: 'handoff' as const, instruments: ['redirect'] };
    const sandbox = { id: 'sandbox', name: 'dev.proto.payments.sandbox', type: 'sandbox' as const, instruments: ['card'] };
    const shop = await checkoutGateway({
      tenant: { payment_handlers: [sandbox, handoff] },
      wrapAdapter: (adapter) =>
        new Proxy(adapter, {
          get: (target, key) => (key === 'capabilities' ? { ...target.capabilities, finishing: ['handoff'] } : Reflect.get(target, key)),
        }),
    });
    try {
      const created = await shop.client('rest').create({ line_items: [line('bouquet_roses', 1)] });
      expect(created.body.proto.payment_handlers).toEqual({
        'dev.proto.payments.handoff': [{ id: 'store_checkout', version: '2026-04-08', available_instruments: [{ type: 'redirect' }] }],
      });
    } finally {
      await shop.close();
    }
  });
});
