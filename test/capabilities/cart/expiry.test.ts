import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CART_TTL_SECONDS, cartGateway, line, type CartGateway } from './cart-gateway.js';

let gw: CartGateway;
beforeAll(async () => {
  gw = await cartGateway();
});
afterAll(() => gw.close());

const TTL_MS = CART_TTL_SECONDS * 1000;
const notFound = (body: any) =>
  body.proto.status === 'error' && body.messages[0].code === 'not_found' && body.messages[0].severity === 'unrecoverable';

describe('cart expiry on the gateway clock (tenant cart_ttl_seconds)', () => {
  it('a cart lives until expires_at and is not_found from then on, for reads, updates and cancels', async () => {
    const rest = gw.client('rest');
    const created = (await rest.create({ line_items: [line('pot_ceramic')] })).body;
    expect(Date.parse(created.expires_at)).toBe(gw.clock.now + TTL_MS);
    gw.clock.now += TTL_MS - 1;
    expect((await rest.get(created.id)).body.id).toBe(created.id);
    gw.clock.now += 1;
    expect(notFound((await rest.get(created.id)).body)).toBe(true);
    expect(notFound((await rest.update(created.id, { line_items: [line('pot_ceramic')] })).body)).toBe(true);
    expect(notFound((await gw.client('mcp').cancel(created.id)).body)).toBe(true);
  });

  it('an update restarts the lifetime; a read does not', async () => {
    const mcp = gw.client('mcp');
    const created = (await mcp.create({ line_items: [line('bouquet_tulips')] })).body;
    gw.clock.now += TTL_MS / 2;
    expect((await mcp.get(created.id)).body.expires_at).toBe(created.expires_at);
    const updated = (await mcp.update(created.id, { line_items: [line('bouquet_tulips', 2)] })).body;
    expect(Date.parse(updated.expires_at)).toBe(gw.clock.now + TTL_MS);
    gw.clock.now += TTL_MS - 1; // past the first expiry, before the new one
    expect((await mcp.get(created.id)).body.line_items[0].quantity).toBe(2);
    gw.clock.now += 1;
    expect(notFound((await mcp.get(created.id)).body)).toBe(true);
  });

  it('the stored record expires with the cart', async () => {
    const created = (await gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body;
    expect(await gw.store.get(`cart:shop:${created.id}`)).not.toBeNull();
    gw.clock.now += TTL_MS;
    expect(await gw.store.get(`cart:shop:${created.id}`)).toBeNull();
  });
});
