import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisStore } from '../../../src/state/redis-store.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../../helpers/redis.js';
import { randomPrefix } from '../../state/store-contract.js';
import { CART_TTL_SECONDS, cartGateway, line } from './cart-gateway.js';

describeWithRedis('carts in Redis', () => {
  const keyPrefix = randomPrefix();
  let platform: PlatformServer;
  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(async () => {
    await platform.close();
    await deleteKeys(REDIS_URL, keyPrefix);
  });

  /** A gateway replica on its own Redis connection, for the same platform (the carts' owner). */
  async function replica() {
    const store = await RedisStore.connect(REDIS_URL, { keyPrefix });
    const gw = await cartGateway({ store, platform });
    return {
      gw,
      stop: async () => {
        await gw.close();
        await store.close();
      },
    };
  }

  it('a cart outlives the gateway that created it: another gateway process reads, updates and cancels it', async () => {
    const first = await replica();
    const created = (
      await first.gw.client('rest').create({ line_items: [line('bouquet_roses', 2), line('pot_ceramic')], discounts: { codes: ['10OFF'] } })
    ).body;
    await first.stop();

    const second = await replica();
    try {
      const mcp = second.gw.client('mcp');
      expect((await mcp.get(created.id)).body).toEqual(created);
      const updated = (await mcp.update(created.id, { line_items: [line('pot_ceramic', 2)] })).body;
      expect(updated.line_items[0].id).toBe(created.line_items[1].id);
      expect(updated.discounts.codes).toEqual(['10OFF']);
      expect((await mcp.cancel(created.id)).body.proto.status).toBe('success');
      expect((await mcp.get(created.id)).body.messages[0].code).toBe('not_found');
    } finally {
      await second.stop();
    }
  });

  it('the Redis record carries the cart lifetime as its TTL', async () => {
    const { gw, stop } = await replica();
    const raw = new Redis(REDIS_URL);
    try {
      const created = (await gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body;
      const ttl = await raw.pttl(`${keyPrefix}k:cart:shop:${created.id}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(CART_TTL_SECONDS * 1000);
    } finally {
      raw.disconnect();
      await stop();
    }
  });

  it('concurrent updates through two gateways sharing Redis are all applied', async () => {
    const [a, b] = [await replica(), await replica()];
    try {
      const cart = (await a.gw.client('rest').create({ line_items: [line('pot_ceramic')] })).body;
      const lines = [line('pot_ceramic', 1)];
      await Promise.all([
        a.gw.client('rest').update(cart.id, { line_items: lines, discounts: { codes: ['WELCOME20'] } }),
        b.gw.client('rest').update(cart.id, { line_items: lines, buyer: { email: 'ann@example.com' } }),
        a.gw.client('mcp').update(cart.id, { line_items: lines, context: { address_country: 'US', address_region: 'NY' } }),
        b.gw.client('mcp').update(cart.id, { line_items: lines, attribution: { 'com.example.source': 'newsletter' } }),
      ]);
      const final = (await b.gw.client('rest').get(cart.id)).body;
      expect([final.discounts.codes, final.buyer, final.context, final.attribution]).toEqual([
        ['WELCOME20'],
        { email: 'ann@example.com' },
        { address_country: 'US', address_region: 'NY' },
        { 'com.example.source': 'newsletter' },
      ]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
