import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/contract.js';
import { cartGateway, line, type CartGateway } from './cart-gateway.js';

let gw: CartGateway;
let quotes = 0;

/** Every quote takes a few milliseconds, so concurrent updates of one cart overlap for sure. */
const slowQuotes = (adapter: Adapter): Adapter =>
  Object.assign(Object.create(adapter) as Adapter, {
    async quote(...args: Parameters<Adapter['quote']>) {
      quotes += 1;
      await sleep(5);
      return adapter.quote(...args);
    },
  });

beforeAll(async () => {
  gw = await cartGateway({ wrapAdapter: slowQuotes });
});
afterAll(() => gw.close());

describe('concurrent changes of one cart', () => {
  it('updates that change different members all take effect: none overwrites another unseen', async () => {
    const rest = gw.client('rest');
    const mcp = gw.client('mcp');
    const cart = (await rest.create({ line_items: [line('pot_ceramic', 1)] })).body;
    const lines = [line('pot_ceramic', 1, cart.line_items[0].id)];
    const before = quotes;
    const replies = await Promise.all([
      rest.update(cart.id, { line_items: lines, discounts: { codes: ['10OFF'] } }),
      mcp.update(cart.id, { line_items: lines, context: { address_country: 'US', address_region: 'IL' } }),
      rest.update(cart.id, { line_items: lines, buyer: { email: 'ann@example.com' } }),
      mcp.update(cart.id, { line_items: lines, attribution: { 'com.example.campaign': 'spring' } }),
      rest.update(cart.id, { line_items: lines, signals: { 'dev.proto.buyer_ip': '203.0.113.7' } }),
    ]);
    expect(replies.map((r) => r.body.proto.status)).toEqual(['success', 'success', 'success', 'success', 'success']);
    expect(quotes - before).toBeGreaterThan(replies.length); // conflicts were decided again on the fresh cart
    const final = (await rest.get(cart.id)).body;
    expect(final.discounts.codes).toEqual(['10OFF']);
    expect(final.context).toEqual({ address_country: 'US', address_region: 'IL' });
    expect(final.buyer).toEqual({ email: 'ann@example.com' });
    expect(final.attribution).toEqual({ 'com.example.campaign': 'spring' });
    expect(final.signals).toEqual({ 'dev.proto.buyer_ip': '203.0.113.7' });
    expect(final.line_items.map((l: any) => l.id)).toEqual([cart.line_items[0].id]);
  });

  it('each concurrent update sees the one before it: a line added by item keeps the id the earlier update gave it', async () => {
    const rest = gw.client('rest');
    const cart = (await rest.create({ line_items: [line('pot_ceramic', 1)] })).body;
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => rest.update(cart.id, { line_items: [line('pot_ceramic', 1), line('orchid_white', i + 1)] })),
    );
    // Applied one after the other, the first gave the orchid line an id and every later one reused it.
    const orchidIds = new Set(replies.map((r) => r.body.line_items[1].id));
    expect(orchidIds.size).toBe(1);
    expect(new Set(replies.map((r) => r.body.line_items[0].id))).toEqual(new Set([cart.line_items[0].id]));
    const final = (await rest.get(cart.id)).body;
    expect(final.line_items[1].id).toBe([...orchidIds][0]);
  });

  it('an update racing a cancel never brings the canceled cart back', async () => {
    const rest = gw.client('rest');
    for (let round = 0; round < 5; round++) {
      const cart = (await rest.create({ line_items: [line('bouquet_roses', 1)] })).body;
      const [updated, canceled] = await Promise.all([
        rest.update(cart.id, { line_items: [line('bouquet_roses', 2)] }),
        rest.cancel(cart.id),
      ]);
      expect(canceled.body.proto.status).toBe('success');
      // Either the update came first (and the cancel answered with it) or it found the cart canceled.
      if (updated.body.proto.status === 'success') expect(canceled.body.line_items[0].quantity).toBe(2);
      else expect(updated.body.messages[0].code).toBe('not_found');
      expect((await rest.get(cart.id)).body.messages[0].code).toBe('not_found');
    }
  });
});
