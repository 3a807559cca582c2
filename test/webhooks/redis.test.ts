/**
 * The outbox on Redis: a pending delivery survives a gateway restart (the next process, sharing
 * only Redis, delivers it with the same Webhook-Id), and the operator tool lists and replays dead
 * letters there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../scripts/outbox.js';
import type { Keyring } from '../../src/security/keyring.js';
import { RedisStore } from '../../src/state/redis-store.js';
import { createdEventId } from '../../src/capabilities/order/order-event.js';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';
import { NOW, orderGateway, tenantKeyring } from '../helpers/order-gateway.js';
import { startPlatform, type PlatformServer } from '../helpers/platform.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { randomPrefix } from '../state/store-contract.js';
import { bodyOf, verifyAsPlatform } from './platform-side.js';

describeWithRedis('order webhooks on Redis', () => {
  const keyPrefix = randomPrefix();
  let platform: PlatformServer;
  let receiver: WebhookReceiver;
  let keyring: Keyring;
  const clock = { now: NOW };

  beforeAll(async () => {
    platform = await startPlatform();
    receiver = await startReceiver();
    keyring = await tenantKeyring(); // the tenant's key file, the same for every process
  });
  afterAll(async () => {
    await receiver.close();
    await platform.close();
    await deleteKeys(REDIS_URL, keyPrefix);
  });

  /** One gateway process: its own Redis connection, the shared platform, key and clock. */
  async function gatewayProcess(webhooks: Parameters<typeof orderGateway>[0] = {}) {
    const store = await RedisStore.connect(REDIS_URL, { keyPrefix, now: () => clock.now });
    const gw = await orderGateway({ store, platform, keyring, clock, ...webhooks });
    return {
      gw,
      store,
      async stop() {
        await gw.close();
        await store.close();
      },
    };
  }

  it('a gateway restarted while an event waits for its retry delivers it, with the same Webhook-Id and body', async () => {
    const first = await gatewayProcess();
    receiver.answer(503);
    const orderId = await first.gw.placeOrder({ webhookUrl: receiver.url() });
    const [failed] = await receiver.waitFor(1);
    // The failure is recorded before the process goes away (the retry is scheduled in Redis).
    await expect.poll(async () => (await orderWebhookQueue(first.store, 'shop').depth()).queued).toBe(1);
    await first.stop();

    receiver.answer(200);
    clock.now += 20_000;
    const second = await gatewayProcess();
    try {
      const [, delivered] = await receiver.waitFor(2);
      expect(delivered!.headers['webhook-id']).toBe(createdEventId('shop', orderId));
      expect(delivered!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
      expect(delivered!.body).toBe(failed!.body);
      expect(bodyOf(delivered!).id).toBe(orderId);
      await expect(verifyAsPlatform(second.gw, receiver, delivered!, () => clock.now)).resolves.toHaveLength(1);
      await expect.poll(async () => orderWebhookQueue(second.store, 'shop').depth()).toEqual({ queued: 0, dead: 0 });
    } finally {
      await second.stop();
    }
  });

  it('the outbox tool lists dead letters in Redis and replays them into the running gateway', async () => {
    receiver.received.length = 0;
    const gateway = await gatewayProcess({ webhooks: { schedule: { maxAttempts: 1, delayMs: () => 1000 } } });
    const tool = await RedisStore.connect(REDIS_URL, { keyPrefix, now: () => clock.now }); // the operator's own connection
    try {
      receiver.answer(500);
      const orderId = await gateway.gw.placeOrder({ webhookUrl: receiver.url() });
      await expect.poll(async () => (await orderWebhookQueue(tool, 'shop').depth()).dead).toBe(1);

      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
      expect(await run(['list'], io, tool, () => ['shop'])).toBe(0);
      const id = createdEventId('shop', orderId);
      expect(out).toEqual([
        expect.stringMatching(
          new RegExp(
            `^${id}  tenant=shop  order=${orderId}  kind=order_created  attempts=1  died=.*  ` +
              `to=http://127\\.0\\.0\\.1:\\d+/hooks/orders  reason="HTTP 500"$`,
          ),
        ),
      ]);
      expect(err).toEqual(['1 dead-lettered order webhook']);

      receiver.answer(200);
      expect(await run(['replay', id], io, tool, () => ['shop'])).toBe(0);
      expect(out.at(-1)).toBe(`replayed ${id} (order ${orderId})`);
      const [, replayed] = await receiver.waitFor(2);
      expect(replayed!.headers['webhook-id']).toBe(id);
      await expect.poll(async () => orderWebhookQueue(tool, 'shop').depth()).toEqual({ queued: 0, dead: 0 });
    } finally {
      await tool.close();
      await gateway.stop();
    }
  });
});
