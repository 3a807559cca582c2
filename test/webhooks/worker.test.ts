/**
 * The delivery worker's bounds: the retry schedule spans about a day, one attempt has a deadline,
 * the outbox shows in the metrics, and a closing gateway stops claiming and finishes the
 * deliveries it has in flight.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError, type DurableQueue } from '../../src/state/store.js';
import { QueueWorker } from '../../src/state/queue-worker.js';
import { describeOrderEvent, ORDER_WEBHOOK_NAMES } from '../../src/workers/order-webhooks.js';
import type { OrderEvent } from '../../src/capabilities/order/order-event.js';
import { orderWebhookQueue } from '../../src/capabilities/order/outbox.js';
import { backoffSchedule, DEFAULT_BACKOFF } from '../../src/state/retry-schedule.js';
import { orderGateway, type OrderGateway } from '../helpers/order-gateway.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { sample, scrape } from '../ops/helpers/prometheus.js';

const HOUR = 3_600_000;

describe('the retry schedule', () => {
  const waits = (random: () => number) => {
    const schedule = backoffSchedule({ ...DEFAULT_BACKOFF, random });
    return Array.from({ length: schedule.maxAttempts - 1 }, (_, i) => schedule.delayMs(i + 1));
  };

  it('retries 10 times over about 24 hours, exponentially from 20 s up to 6 h between attempts', () => {
    const nominal = waits(() => 0.5);
    expect(nominal).toEqual([20_000, 60_000, 180_000, 540_000, 1_620_000, 4_860_000, 14_580_000, 6 * HOUR, 6 * HOUR, 6 * HOUR]);
    expect(nominal.reduce((a, b) => a + b) / HOUR).toBeCloseTo(24.07, 2);
  });

  it('spreads each wait by up to 20 % either way', () => {
    const nominal = waits(() => 0.5);
    const shortest = waits(() => 0);
    const longest = waits(() => 0.999999);
    nominal.forEach((wait, i) => {
      expect(shortest[i]).toBe(Math.round(wait * 0.8));
      expect(longest[i]).toBeLessThanOrEqual(Math.round(wait * 1.2));
      expect(longest[i]).toBeGreaterThan(Math.round(wait * 1.19));
    });
    const random = waits(Math.random);
    random.forEach((wait, i) => expect(Math.abs(wait - nominal[i]!)).toBeLessThanOrEqual(nominal[i]! * 0.2 + 1));
  });
});

/** A platform endpoint that holds every request until the test answers it. */
async function holdingReceiver() {
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    held,
    release: () => held.splice(0).forEach((res) => res.writeHead(200).end()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let gw: OrderGateway | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await gw?.close();
  gw = undefined;
});

describe('the delivery worker', () => {
  it('gives up on an attempt at its deadline, as on any failed attempt', async () => {
    const platform = await holdingReceiver();
    try {
      gw = await orderGateway({ webhooks: { timeoutMs: 100, schedule: { maxAttempts: 1, delayMs: () => 1000 } } });
      await gw.placeOrder({ webhookUrl: platform.url });
      await expect
        .poll(async () => orderWebhookQueue(gw!.store, 'shop').listDead(), { timeout: 10_000 })
        .toEqual([expect.objectContaining({ reason: 'no answer within 100 ms' })]);
    } finally {
      await platform.close();
    }
  });

  it('shows the outbox in the metrics: events waiting and dead, attempts by outcome', async () => {
    const receiver = await startReceiver();
    try {
      gw = await orderGateway({ webhooks: { schedule: { maxAttempts: 2, delayMs: () => 1000 } } });
      receiver.answer(503);
      await gw.placeOrder({ webhookUrl: receiver.url() });
      const metric = async (name: string, labels: Record<string, string>) =>
        sample(await scrape(gw!.app), name, { queue: 'order-webhooks', ...labels });
      await expect.poll(() => metric('proto_outbox_delivery_attempts_total', { outcome: 'retried' })).toBe(1);
      expect(await metric('proto_outbox_jobs', { state: 'queued' })).toBe(1);
      gw.advance(1000);
      await expect.poll(() => metric('proto_outbox_jobs', { state: 'dead' })).toBe(1);
      expect(await metric('proto_outbox_jobs', { state: 'queued' })).toBe(0);
      expect(await metric('proto_outbox_delivery_attempts_total', { outcome: 'dead_lettered' })).toBe(1);
      receiver.answer(200);
      await gw.placeOrder({ webhookUrl: receiver.url() });
      await expect.poll(() => metric('proto_outbox_delivery_attempts_total', { outcome: 'delivered' })).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('stops claiming when the gateway closes, and the delivery in flight is acked', async () => {
    const platform = await holdingReceiver();
    try {
      gw = await orderGateway();
      const queue = orderWebhookQueue(gw.store, 'shop');
      await gw.placeOrder({ webhookUrl: platform.url });
      await vi.waitFor(() => expect(platform.held).toHaveLength(1));

      const closing = gw.app.close();
      await gw.placeOrder({ webhookUrl: platform.url });
      platform.release();
      await closing;
      // The delivery in flight is acked; the event queued meanwhile was never claimed: it is due and
      // unleased. (That closing waits for the delivery, within its bound, is the test below.)
      expect(await queue.depth()).toEqual({ queued: 1, dead: 0 });
      expect(await queue.claim(10, 1000)).toHaveLength(1);
      expect(platform.held).toHaveLength(0);
    } finally {
      await platform.close();
    }
  });
});

describe('a closing gateway whose platform does not answer', () => {
  it('waits for the delivery in flight up to the attempt deadline and a second more, then closes', async () => {
    const platform = await holdingReceiver();
    try {
      gw = await orderGateway({ webhooks: { timeoutMs: 5_000 } });
      await gw.placeOrder({ webhookUrl: platform.url });
      await vi.waitFor(() => expect(platform.held).toHaveLength(1));
      // The bound runs on a fake clock (the delivery's own deadline started on the real one, so it never fires here).
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldClearNativeTimers: true });
      let closed = false;
      void gw.app.close().then(() => (closed = true));
      /** Event-loop turns enough for closing to end once nothing holds it: the second check shows they are. */
      const turns = async () => {
        for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      };
      await vi.advanceTimersByTimeAsync(5_999);
      await turns();
      expect(closed).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await turns();
      expect(closed).toBe(true);
    } finally {
      vi.useRealTimers();
      platform.release();
      await platform.close();
    }
  });
});

describe('a worker whose store is down', () => {
  it('warns once per outage, not on every poll, and says when the outbox answers again', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let claims = 0;
    const queue = {
      claim: async () => {
        claims += 1;
        if (claims <= 5) throw new StoreUnavailableError('Redis did not answer');
        return [];
      },
    } as unknown as DurableQueue<OrderEvent>;
    const worker = new QueueWorker<OrderEvent>(
      {
        queues: () => [queue],
        deliver: () => Promise.reject(new Error('nothing to deliver')),
        describe: describeOrderEvent,
        names: ORDER_WEBHOOK_NAMES,
        schedule: backoffSchedule(),
        metrics: { attempt: () => undefined },
        log,
        now: Date.now,
      },
      { concurrency: 2, pollMs: 1, leaseMs: 60_000, drainMs: 1000 },
    );
    worker.start();
    await vi.waitFor(() => expect(claims).toBeGreaterThan(7));
    await worker.stop();
    expect(lines.map((l) => l.msg)).toEqual([
      'order webhooks: cannot reach the outbox; trying again every poll',
      'order webhooks: the outbox answers again',
    ]);
  });
});
