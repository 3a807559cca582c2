import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartGateway, line, type CartGateway, type Transport } from './cart-gateway.js';

let gw: CartGateway;
beforeAll(async () => {
  gw = await cartGateway();
});
afterAll(() => gw.close());

const conflict = (reply: { status: number; body: any; error?: any }, transport: Transport) =>
  transport === 'rest' ? [reply.status, reply.body.code] : [reply.error?.data?.http_status, reply.error?.data?.code];

describe.each<Transport>(['rest', 'mcp'])('idempotent cart writes over %s', (transport) => {
  const client = () => gw.client(transport);

  it('create: a repeat returns the same cart without making another; another body with the key is 409', async () => {
    const key = randomUUID();
    const body = { line_items: [line('bouquet_roses', 1)] };
    const first = await client().create(body, { key });
    const again = await client().create(body, { key });
    expect(again.body).toEqual(first.body);
    if (transport === 'rest') expect([again.status, again.replayed]).toEqual([201, true]);
    expect(conflict(await client().create({ line_items: [line('bouquet_roses', 2)] }, { key }), transport)).toEqual([
      409,
      'idempotency_key_reused',
    ]);
    // The replayed cart is the one that exists: an update through it works.
    expect((await client().update(first.body.id, { line_items: [line('pot_ceramic')] })).body.id).toBe(first.body.id);
  });

  it('update: a repeat returns the stored answer and changes nothing more; another body is 409', async () => {
    const cart = (await client().create({ line_items: [line('pot_ceramic', 1)] })).body;
    const key = randomUUID();
    const first = await client().update(cart.id, { line_items: [line('pot_ceramic', 2)] }, { key });
    await client().update(cart.id, { line_items: [line('pot_ceramic', 5)] });
    const again = await client().update(cart.id, { line_items: [line('pot_ceramic', 2)] }, { key });
    expect(again.body).toEqual(first.body);
    expect((await client().get(cart.id)).body.line_items[0].quantity).toBe(5); // the replay did not write
    expect(conflict(await client().update(cart.id, { line_items: [line('pot_ceramic', 3)] }, { key }), transport)).toEqual([
      409,
      'idempotency_key_reused',
    ]);
  });

  it('cancel: a repeat returns the canceled cart again (not not_found); the key on another cart is 409', async () => {
    const cart = (await client().create({ line_items: [line('orchid_white', 1)] })).body;
    const other = (await client().create({ line_items: [line('orchid_white', 1)] })).body;
    const key = randomUUID();
    const first = await client().cancel(cart.id, { key });
    const again = await client().cancel(cart.id, { key });
    expect(first.body.proto.status).toBe('success');
    expect(again.body).toEqual(first.body);
    expect(conflict(await client().cancel(other.id, { key }), transport)).toEqual([409, 'idempotency_key_reused']);
    expect((await client().get(other.id)).body.id).toBe(other.id);
  });

  it('a business outcome is replayed too', async () => {
    const key = randomUUID();
    const soldOut = await client().create({ line_items: [line('gardenias', 1)] }, { key });
    expect(soldOut.body.proto.status).toBe('error');
    expect((await client().create({ line_items: [line('gardenias', 1)] }, { key })).body).toEqual(soldOut.body);
  });
});
