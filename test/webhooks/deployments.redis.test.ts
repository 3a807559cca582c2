/**
 * Two deployments on one Redis (real Redis): a gateway claims only the order webhooks of the
 * tenants it serves, and STORE_PREFIX keeps deployments that serve the same tenant id apart.
 * Each gateway delivers an event of its own after the other's was queued: once that arrived, it
 * has polled while the other's event was due, and that event must still be untouched.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { settingsFromEnv } from '../../src/config/env.js';
import { openStore } from '../../src/state/create-store.js';
import type { StateStore } from '../../src/state/store.js';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

describeWithRedis('deployments sharing one Redis', () => {
  const run = `test-${randomUUID().slice(0, 8)}`;
  let receiver: WebhookReceiver;
  const opened: Array<{ store: StateStore; gw: OrderGateway }> = [];

  /** A gateway serving `tenant` on the store STORE and STORE_PREFIX name; `idle` polls once at start, then not for an hour. */
  async function deployment(storePrefix: string, tenant: string, idle = false) {
    const store = await openStore(settingsFromEnv({ STORE: REDIS_URL, STORE_PREFIX: storePrefix }));
    const gw = await orderGateway({ store, tenant: { id: tenant }, webhooks: idle ? { pollMs: 3_600_000 } : {} });
    opened.push({ store, gw });
    return { store, gw };
  }

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const { store, gw } of opened) {
      await gw.close();
      await store.close();
    }
    await receiver.close();
    await deleteKeys(REDIS_URL, `${run}`);
  });

  it('a gateway never claims an event of a tenant it does not serve', async () => {
    const a = await deployment(`${run}-shared`, 'shop1', true);
    const b = await deployment(`${run}-shared`, 'shop2');
    const foreign = await a.gw.placeOrder({ webhookUrl: receiver.url('/a') });
    const own = await b.gw.placeOrder({ webhookUrl: receiver.url('/b') });
    const [delivered] = await receiver.waitFor(1);
    expect(JSON.parse(delivered!.body).id).toBe(own);

    expect(b.gw.logs.filter((l) => (typeof l.reason === 'string' ? l.reason : '').includes('not configured'))).toEqual([]);
    const queue = orderWebhookQueue(a.store, 'shop1');
    expect(await queue.depth()).toEqual({ queued: 1, dead: 0 });
    const [waiting] = await queue.claim(10, 60_000);
    expect(waiting).toMatchObject({ attempts: 0, payload: { tenantId: 'shop1', order: { id: foreign } } });
    expect(receiver.received).toHaveLength(1);
  });

  it('STORE_PREFIX keeps two deployments of the same tenant apart', async () => {
    receiver.received.length = 0;
    const a = await deployment(`${run}-a`, 'shop', true);
    const b = await deployment(`${run}-b`, 'shop');
    const foreign = await a.gw.placeOrder({ webhookUrl: receiver.url('/a') });
    const own = await b.gw.placeOrder({ webhookUrl: receiver.url('/b') });
    const [delivered] = await receiver.waitFor(1);
    expect(JSON.parse(delivered!.body).id).toBe(own);

    const [waiting] = await orderWebhookQueue(a.store, 'shop').claim(10, 60_000);
    expect(waiting).toMatchObject({ attempts: 0, payload: { order: { id: foreign } } });
    expect(await orderWebhookQueue(b.store, 'shop').depth()).toEqual({ queued: 0, dead: 0 });
  });

  it('STORE_PREFIX is checked: no braces (a Cluster hash tag) and a ":" is added', () => {
    expect(settingsFromEnv({ STORE_PREFIX: 'eu-1' }).storePrefix).toBe('eu-1:');
    expect(settingsFromEnv({}).storePrefix).toBe('');
    expect(() => settingsFromEnv({ STORE_PREFIX: '{eu}' })).toThrow(/STORE_PREFIX must be/);
  });
});
