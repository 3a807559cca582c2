/**
 * Two gateway processes on different ports sharing one Redis, as operators scale out: nothing a
 * replica keeps in its own memory is needed by the other. A cart made on one is changed on the
 * other, one idempotency key sent to both at once executes once, and every order webhook is
 * attempted by one replica at a time and delivered once.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ALL_CAPABILITIES } from '../helpers/platform.js';
import { redisBinariesProblem, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { describeWhenAvailable } from '../helpers/redis.js';
import { buildGateway, startGateway, type GatewayProcess } from './helpers/gateway-process.js';

/** The platform: its profile (with an order webhook URL) and its webhook endpoint, on loopback. */
interface Platform {
  origin: string;
  /** Webhook-Id of every delivery attempt, in arrival order. */
  attempts: string[];
  /** Largest number of attempts of one Webhook-Id in flight at once. */
  maxInFlightPerEvent: number;
  server: Server;
}

async function startPlatform(): Promise<Platform> {
  const inFlight = new Map<string, number>();
  const platform: Platform = { origin: '', attempts: [], maxInFlightPerEvent: 0, server: createServer() };
  platform.server.on('request', (req, res) => {
    if (req.url === '/.well-known/proto') {
      const capabilities = Object.fromEntries(ALL_CAPABILITIES.map((name) => [name, [{ version: '2026-04-08' }]]));
      capabilities['dev.proto.shopping.order'] = [{ version: '2026-04-08', config: { webhook_url: `${platform.origin}/hooks` } } as never];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ proto: { version: '2026-04-08', capabilities } }));
      return;
    }
    const id = String(req.headers['webhook-id']);
    platform.attempts.push(id);
    inFlight.set(id, (inFlight.get(id) ?? 0) + 1);
    platform.maxInFlightPerEvent = Math.max(platform.maxInFlightPerEvent, inFlight.get(id)!);
    req.resume();
    // Held a while, so a second replica claiming the same event would overlap it.
    setTimeout(() => {
      inFlight.set(id, inFlight.get(id)! - 1);
      res.writeHead(200).end();
    }, 250);
  });
  await new Promise<void>((done) => platform.server.listen(0, '127.0.0.1', done));
  platform.origin = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
  return platform;
}

describeWhenAvailable('two gateway replicas sharing one Redis', redisBinariesProblem(), () => {
  let build: Awaited<ReturnType<typeof buildGateway>>;
  let redis: RedisServer;
  let platform: Platform;
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    [build, redis, platform] = await Promise.all([buildGateway(), startRedisServer(), startPlatform()]);
    const env = { CONFIG_DIR: resolve('config'), STORE: redis.url, GATEWAY_SECRET: randomUUID() + randomUUID() };
    [a, b] = await Promise.all([startGateway(build.dir, env), startGateway(build.dir, env)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([redis?.remove(), build?.remove(), new Promise((done) => platform?.server.close(done))]);
  });

  async function call(replica: GatewayProcess, method: string, path: string, body?: unknown, key: string = randomUUID()) {
    const res = await fetch(`${replica.origin}${path}`, {
      method,
      headers: {
        'proto-agent': `profile="${platform.origin}/.well-known/proto"`,
        'request-id': randomUUID(),
        ...(method !== 'GET' && { 'idempotency-key': key, 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', text: await res.text() };
  }
  const json = (reply: { text: string }) => JSON.parse(reply.text);

  it('a cart created on one replica is read and updated on the other', async () => {
    const created = json(await call(a, 'POST', '/carts', { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 1 }] }));
    const updated = await call(b, 'PUT', `/carts/${created.id}`, {
      line_items: [{ id: created.line_items[0].id, item: { id: 'bouquet_roses' }, quantity: 3 }],
    });
    expect(updated.status).toBe(200);
    expect(json(updated).line_items[0]).toMatchObject({ id: created.line_items[0].id, quantity: 3 });
    const readBack = json(await call(a, 'GET', `/carts/${created.id}`));
    expect(readBack.line_items[0].quantity).toBe(3);
  });

  it('one idempotency key sent to both replicas at once executes once', async () => {
    for (let round = 0; round < 5; round++) {
      const key = randomUUID();
      const body = { line_items: [{ item: { id: 'pot_ceramic' }, quantity: 1 }] };
      const [first, second] = await Promise.all([call(a, 'POST', '/carts', body, key), call(b, 'POST', '/carts', body, key)]);
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.text).toBe(first.text);
      expect([first.replayed, second.replayed].filter(Boolean)).toHaveLength(1);
    }
  });

  it('every order webhook is attempted by one replica at a time and delivered once', async () => {
    const orders: string[] = [];
    for (const replica of [a, b, a, b, a, b]) {
      const checkout = json(
        await call(replica, 'POST', '/checkout-sessions', {
          line_items: [{ item: { id: 'ebook_flower_care' }, quantity: 1 }],
          buyer: { email: 'ann@example.com' },
          context: { address_country: 'US', address_region: 'IL' },
        }),
      );
      expect(checkout.status, JSON.stringify(checkout.messages)).toBe('ready_for_complete');
      const payment = {
        payment: {
          instruments: [
            { id: 'instr_1', handler_id: 'sandbox', type: 'card', credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' } },
          ],
        },
      };
      const done = json(await call(replica === a ? b : a, 'POST', `/checkout-sessions/${checkout.id}/complete`, payment));
      expect(done.status).toBe('completed');
      orders.push(done.order.id);
    }
    await vi.waitFor(() => expect(new Set(platform.attempts).size).toBe(orders.length), { timeout: 20_000, interval: 100 });
    expect(platform.attempts).toHaveLength(orders.length);
    expect(platform.maxInFlightPerEvent).toBe(1);
    const delivered = () => [...a.logs, ...b.logs].filter((line) => line.msg === 'order webhook delivered');
    await vi.waitFor(() => expect(delivered()).toHaveLength(orders.length), { timeout: 5_000, interval: 50 });
  });
});
