/**
 * A checkout from a cart (spec part 1 §2.5, §4.3): the cart's lines, context and buyer win over
 * the payload's, its discount codes are carried forward, and codes no longer valid are reported
 * with the standard rejection codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutGateway, codes, line, PROFILES, STOREFRONT, type CheckoutGateway, type Transport } from './checkout-gateway.js';

let gw: CheckoutGateway;
beforeAll(async () => {
  gw = await checkoutGateway({ tenant: { policies: { cart_ttl_seconds: 86_400 } } });
});
afterAll(() => gw.close());

describe.each<Transport>(['rest', 'mcp'])('checkout from a cart over %s', (transport) => {
  it('takes the cart lines (with their ids), context and buyer; carries a code that has expired since and reports it', async () => {
    // SPRING2025 ends at 2025-06-01T00:00Z: applied on the cart, stale at checkout.
    gw.clock.now = Date.parse('2025-05-31T22:00:00Z');
    const context = { address_country: 'US', address_region: 'IL', postal_code: '60601' };
    const cart = (
      await gw.carts(transport).create({
        line_items: [line('bouquet_tulips', 2), line('pot_ceramic')],
        context,
        buyer: { email: 'ann@example.com' },
        discounts: { codes: ['SPRING2025', 'WHATEVER'] },
      })
    ).body;
    expect(cart.discounts.applied.map((d: any) => d.code ?? d.title)).toContain('SPRING2025');

    gw.clock.now = Date.parse('2025-06-01T08:00:00Z');
    const reply = await gw.client(transport).create({
      cart_id: cart.id,
      line_items: [line('orchid_white', 5)],
      buyer: { email: 'someone.else@example.com' },
      context: { address_country: 'CA' },
      discounts: { codes: ['10OFF', 'spring2025'] },
    });
    if (transport === 'rest') expect(reply.status).toBe(201);
    const checkout = reply.body;
    expect(checkout.line_items.map((l: any) => [l.id, l.item.id, l.quantity])).toEqual(
      cart.line_items.map((l: any) => [l.id, l.item.id, l.quantity]),
    );
    expect(checkout.buyer).toEqual({ email: 'ann@example.com' });
    expect(checkout.context).toEqual(context);
    // The cart's codes first, then the payload's that it does not already have.
    expect(checkout.discounts.codes).toEqual(['SPRING2025', 'WHATEVER', '10OFF']);
    expect(checkout.messages.filter((m: any) => m.type === 'warning').map((m: any) => [m.code, m.path])).toEqual([
      ['discount_code_expired', '$.discounts.codes[0]'],
      ['discount_code_invalid', '$.discounts.codes[1]'],
    ]);
    expect(checkout.discounts.applied.map((d: any) => d.code ?? d.title)).toContain('10OFF');
    expect(checkout.discounts.applied.map((d: any) => d.code)).not.toContain('SPRING2025');
  });

  it('accepts line_items: [] beside cart_id (the cart lines count)', async () => {
    const cart = (await gw.carts(transport).create({ line_items: [line('pot_ceramic', 2)] })).body;
    const reply = await gw.client(transport).create({ cart_id: cart.id, line_items: [] });
    if (transport === 'rest') expect(reply.status).toBe(201);
    expect(reply.body.proto.status).toBe('success');
    expect(reply.body.line_items.map((l: any) => [l.id, l.item.id, l.quantity])).toEqual([[cart.line_items[0].id, 'pot_ceramic', 2]]);
  });

  it('converting a cart whose checkout is still open returns that checkout; once it is canceled a new one', async () => {
    const carts = gw.carts(transport);
    const cart = (await carts.create({ line_items: [line('pot_ceramic')] })).body;
    const [first, concurrent] = await Promise.all([
      gw.client(transport).create({ cart_id: cart.id }),
      gw.client(transport).create({ cart_id: cart.id, line_items: [] }),
    ]);
    expect(concurrent.body.id).toBe(first.body.id);
    await carts.update(cart.id, { line_items: [line('pot_ceramic', 3)] });
    const again = await gw.client(transport).create({ cart_id: cart.id, line_items: [] });
    if (transport === 'rest') expect(again.status).toBe(200);
    expect(again.body.proto.status).toBe('success');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.line_items).toEqual(first.body.line_items);

    await gw.client(transport).cancel(first.body.id);
    const fresh = await gw.client(transport).create({ cart_id: cart.id, line_items: [] });
    if (transport === 'rest') expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(first.body.id);
    expect(fresh.body.line_items.map((l: any) => l.quantity)).toEqual([3]);
  });

  it("another platform's cart, or one that expired, makes no checkout", async () => {
    const cart = (await gw.carts(transport, PROFILES.multiGroup).create({ line_items: [line('pot_ceramic')] })).body;
    const reply = await gw.client(transport).create({ cart_id: cart.id });
    expect(reply.status).toBe(200);
    expect(reply.body.proto.status).toBe('error');
    expect(reply.body.id).toBeUndefined();
    expect(codes(reply.body)).toEqual([['not_found', '$.cart_id']]);
    expect(reply.body.continue_url).toBe(STOREFRONT);
  });
});
