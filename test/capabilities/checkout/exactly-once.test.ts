/**
 * Exactly one order per checkout: 50 concurrent completes of one session, with distinct keys and
 * a shared one, over REST and MCP, on one gateway with the memory store and on two gateway
 * replicas sharing Redis. The store places once and the buyer is charged once.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/contract.js';
import { RedisStore } from '../../../src/state/redis-store.js';
import type { StateStore } from '../../../src/state/store.js';
import { startPlatform, type PlatformServer } from '../../helpers/platform.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../../helpers/redis.js';
import { randomPrefix } from '../../state/store-contract.js';
import { checkoutGateway, line, pay, walkToReady, type CheckoutGateway, type Reply } from './checkout-gateway.js';

/** Slows quotes and placements down a little, so concurrent completes overlap for sure; counts placements. */
function overlapping(counter: { placements: number }) {
  return (adapter: Adapter): Adapter =>
    Object.assign(Object.create(adapter) as Adapter, {
      async quote(...args: Parameters<Adapter['quote']>) {
        await sleep(2);
        return adapter.quote(...args);
      },
      async placeOrder(...args: Parameters<Adapter['placeOrder']>) {
        counter.placements += 1;
        await sleep(10);
        return adapter.placeOrder(...args);
      },
    });
}

const ACCEPTED_REFUSALS = ['checkout_in_progress', 'checkout_completed'];

/** 50 completes at once, spread over the replicas and both transports; every tenth shares one key (REST). */
async function fiftyCompletes(replicas: CheckoutGateway[], id: string): Promise<Reply[]> {
  const shared = randomUUID();
  return Promise.all(
    Array.from({ length: 50 }, (_, i) => {
      const gw = replicas[i % replicas.length]!;
      if (i % 10 === 0) return gw.client('rest').complete(id, pay('success_token'), { key: shared });
      return gw.client(i % 2 ? 'rest' : 'mcp').complete(id, pay('success_token'));
    }),
  );
}

async function expectOneOrder(replicas: CheckoutGateway[], store: StateStore, counter: { placements: number }, tenantId = 'shop') {
  const [first] = replicas;
  const { ready } = await walkToReady(first!.client('rest'), [line('bouquet_roses'), line('pot_ceramic')]);
  const replies = await fiftyCompletes(replicas, ready.id);

  expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200));
  const orders = new Set(replies.flatMap((r) => (r.body.order ? [r.body.order.id] : [])));
  expect(orders.size).toBe(1);
  for (const { body } of replies) {
    if (body.proto.status === 'success') expect(body.status).toBe('completed');
    else expect(ACCEPTED_REFUSALS).toContain(body.messages[0].code);
  }
  expect(counter.placements).toBe(1);

  const [orderId] = [...orders];
  const final = (await replicas.at(-1)!.client('mcp').get(ready.id)).body;
  expect([final.status, final.order.id]).toEqual(['completed', orderId]);
  expect((await store.get<{ orderId: string }>(`adapter:memory:${tenantId}:ref:${ready.id}`))?.value.orderId).toBe(orderId);
  expect(await store.get(`payment:sandbox:${tenantId}:sandbox:${ready.id}`)).not.toBeNull();
}

describe('exactly once with the memory store', () => {
  const counter = { placements: 0 };
  let gw: CheckoutGateway;
  beforeAll(async () => {
    gw = await checkoutGateway({ wrapAdapter: overlapping(counter) });
  });
  afterAll(() => gw.close());

  it('50 concurrent completes of one checkout: one order, one charge, every other complete refused or replayed', async () => {
    await expectOneOrder([gw], gw.store, counter);
  });
});

describeWithRedis('exactly once with Redis', () => {
  const keyPrefix = randomPrefix();
  const counter = { placements: 0 };
  let platform: PlatformServer;
  const stores: RedisStore[] = [];
  const replicas: CheckoutGateway[] = [];
  beforeAll(async () => {
    platform = await startPlatform();
    for (let i = 0; i < 2; i++) {
      const store = await RedisStore.connect(REDIS_URL, { keyPrefix });
      stores.push(store);
      replicas.push(await checkoutGateway({ store, platform, wrapAdapter: overlapping(counter) }));
    }
  });
  afterAll(async () => {
    for (const gw of replicas) await gw.close();
    for (const store of stores) await store.close();
    await platform.close();
    await deleteKeys(REDIS_URL, keyPrefix);
  });

  it('50 concurrent completes through two replicas sharing Redis: one order, one charge', async () => {
    await expectOneOrder(replicas, stores[0]!, counter);
  });
});
