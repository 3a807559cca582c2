import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { RedisStore } from '../../src/state/redis-store.js';
import type { StateStore } from '../../src/state/store.js';
import { platformProfile } from '../helpers/platform.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { deleteKeys, describeWhenAvailable, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { redisBinariesProblem, startRedisCluster, startRedisServer, type RedisCluster, type RedisServer } from '../helpers/redis-server.js';
import { echo } from './helpers/echo-operation.js';
import { sample, scrape } from './helpers/prometheus.js';

type RateLimits = NonNullable<NonNullable<TenantConfig['policies']>['rate_limits']>;

const limited = (rateLimits: RateLimits, store?: StateStore) =>
  testGateway({ operations: [echo], tenant: { policies: { allow_loopback_profiles: true, rate_limits: rateLimits } }, ...(store && { store }) });

/** A second platform profile on the same test server: another caller. */
function otherCaller(gw: TestGateway): string {
  const path = `/profiles/${randomUUID()}`;
  gw.platform.serve(path, platformProfile());
  return gw.platform.agent(path);
}

const call = (gw: TestGateway, headers: Record<string, string | undefined> = {}) =>
  gw.app.inject({ method: 'GET', url: `/echo/${randomUUID()}`, headers: gw.headers(headers) });

describe('rate limits (single process)', () => {
  const gateways: TestGateway[] = [];
  const gateway = async (limits: RateLimits) => {
    const gw = await limited(limits);
    gateways.push(gw);
    return gw;
  };
  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((gw) => gw.close()));
  });

  it('refuse a caller past its limit with 429, Retry-After and {code, content}; other callers go on', async () => {
    const gw = await gateway({ per_caller: { max: 2, window_seconds: 60 } });
    expect((await call(gw)).statusCode).toBe(200);
    expect((await call(gw)).statusCode).toBe(200);
    const refused = await call(gw);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(refused.json()).toEqual({ code: 'rate_limited', content: expect.stringContaining('2 requests per 60 s') });
    expect((await call(gw, { 'proto-agent': otherCaller(gw) })).statusCode).toBe(200);
    expect(sample(await scrape(gw.app), 'proto_rate_limited_total', { tenant: 'shop', scope: 'caller' })).toBe(1);
  });

  it('share one budget among all callers of a tenant with per_tenant', async () => {
    const gw = await gateway({ per_tenant: { max: 3, window_seconds: 60 } });
    for (let i = 0; i < 3; i++) expect((await call(gw, { 'proto-agent': otherCaller(gw) })).statusCode).toBe(200);
    const refused = await call(gw, { 'proto-agent': otherCaller(gw) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().content).toContain('all callers of Test Shop');
    expect(sample(await scrape(gw.app), 'proto_rate_limited_total', { tenant: 'shop', scope: 'tenant' })).toBe(1);
  });

  it('never limit discovery, health or metrics', async () => {
    const gw = await gateway({ per_tenant: { max: 1, window_seconds: 60 }, per_caller: { max: 1, window_seconds: 60 } });
    await call(gw);
    expect((await call(gw)).statusCode).toBe(429);
    for (const url of ['/.well-known/proto', '/healthz', '/readyz', '/metrics']) {
      for (let i = 0; i < 3; i++) expect((await gw.app.inject({ method: 'GET', url, headers: gw.headers() })).statusCode, url).toBe(200);
    }
  });

  it('tell callers apart by their credential (hashed) before their profile URL, and never log it', async () => {
    const gw = await gateway({ per_caller: { max: 1, window_seconds: 60 } });
    const keys = ['key-one-secret-value', 'key-two-secret-value'];
    // The limiter counts before authentication (which then refuses these unknown credentials with 401).
    expect((await call(gw, { 'x-api-key': keys[0] })).statusCode).not.toBe(429);
    expect((await call(gw, { 'x-api-key': keys[0] })).statusCode).toBe(429);
    expect((await call(gw, { 'x-api-key': keys[1] })).statusCode).not.toBe(429);
    expect((await call(gw, { authorization: 'Bearer token-one-secret' })).statusCode).not.toBe(429);
    expect((await call(gw, { authorization: 'Bearer token-one-secret' })).statusCode).toBe(429);
    expect((await call(gw, { authorization: 'Bearer token-two-secret' })).statusCode).not.toBe(429);
    const logs = gw.rawLogs.join('\n');
    for (const secret of [...keys, 'token-one-secret', 'token-two-secret']) expect(logs).not.toContain(secret);
  });

  it('answer MCP with a JSON-RPC error carrying data.retry_after and data.code', async () => {
    const gw = await gateway({ per_caller: { max: 1, window_seconds: 30 } });
    const toolCall = () =>
      gw.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json' },
        payload: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { meta: gw.meta(), id: 'a' } } },
      });
    expect((await toolCall()).json()).toMatchObject({ id: 9, result: { structuredContent: { id: 'a' } } });
    const refused = await toolCall();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const body = refused.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32000, data: { code: 'rate_limited', http_status: 429 } } });
    expect(body.error.data.retry_after).toBe(Number(refused.headers['retry-after']));
    expect(body.error.data.retry_after).toBeLessThanOrEqual(30);
  });

  it('do nothing for a tenant without limits', async () => {
    const gw = await testGateway({ operations: [echo] });
    gateways.push(gw);
    for (let i = 0; i < 20; i++) expect((await call(gw)).statusCode).toBe(200);
  });
});

describeWithRedis('rate limits shared through Redis', () => {
  const prefix = `test:${randomUUID()}:`;
  const stores: StateStore[] = [];
  const replicas: TestGateway[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const store = await RedisStore.connect(REDIS_URL, { keyPrefix: prefix });
      stores.push(store);
      replicas.push(await limited({ per_caller: { max: 3, window_seconds: 60 } }, store));
    }
  });
  afterAll(async () => {
    await Promise.all(replicas.map((gw) => gw.close()));
    await Promise.all(stores.map((s) => s.close()));
    await deleteKeys(REDIS_URL, prefix);
  });

  it('count a caller once across replicas, under the store prefix, with no credential in the keys', async () => {
    const [a, b] = replicas as [TestGateway, TestGateway];
    const agent = a.platform.agent();
    const headers = { 'proto-agent': agent, 'x-api-key': 'replica-shared-secret' };
    expect((await call(a, headers)).statusCode).not.toBe(429);
    expect((await call(b, headers)).statusCode).not.toBe(429);
    expect((await call(a, headers)).statusCode).not.toBe(429);
    expect((await call(b, headers)).statusCode).toBe(429);
    expect((await call(a, headers)).statusCode).toBe(429);

    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${prefix}rl:*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join('\n')).not.toContain('replica-shared-secret');
      expect(await redis.pttl(keys[0]!)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});

describeWhenAvailable('rate limits while Redis is down', redisBinariesProblem(), () => {
  let server: RedisServer;
  let store: RedisStore;
  let gw: TestGateway;
  beforeAll(async () => {
    server = await startRedisServer();
    store = await RedisStore.connect(server.url, { commandTimeoutMs: 500 });
    gw = await limited({ per_caller: { max: 1, window_seconds: 60 } }, store);
  });
  afterAll(async () => {
    await gw?.close();
    await store?.close();
    await server?.remove();
  });

  it('let requests through (fail open) with one log line, and limit again once Redis answers', { timeout: 20_000 }, async () => {
    const warnings = () => gw.logs.filter((l) => l.msg === 'rate-limit counters unreachable: requests pass unlimited until they answer');
    await server.stop();
    for (let i = 0; i < 3; i++) expect((await call(gw)).statusCode).toBe(200);
    expect(warnings()).toHaveLength(1);
    expect(sample(await scrape(gw.app), 'proto_rate_limiter_errors_total')).toBe(3);
    expect((await gw.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);

    await server.start();
    await vi.waitFor(() => store.ping(), { timeout: 10_000, interval: 100 });
    expect((await call(gw)).statusCode).toBe(200);
    expect(gw.logs.some((l) => l.msg === 'rate-limit counters answer again')).toBe(true);
    expect((await call(gw)).statusCode).toBe(429);
  });
});

describeWhenAvailable('rate limits on Redis Cluster', redisBinariesProblem(), () => {
  let cluster: RedisCluster;
  let store: RedisStore;
  const replicas: TestGateway[] = [];
  beforeAll(async () => {
    cluster = await startRedisCluster();
    store = await RedisStore.connect(cluster.url, { keyPrefix: `test:${randomUUID()}:` });
    for (let i = 0; i < 2; i++) replicas.push(await limited({ per_caller: { max: 2, window_seconds: 60 }, per_tenant: { max: 100, window_seconds: 60 } }, store));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(replicas.map((gw) => gw.close()));
    await store?.close();
    await cluster?.remove();
  });

  it('count callers and tenants across replicas through the cluster', async () => {
    const [a, b] = replicas as [TestGateway, TestGateway];
    const headers = { 'proto-agent': a.platform.agent() };
    expect((await call(a, headers)).statusCode).toBe(200);
    expect((await call(b, headers)).statusCode).toBe(200);
    expect((await call(a, headers)).statusCode).toBe(429);
    expect((await call(b, { 'proto-agent': otherCaller(b) })).statusCode).toBe(200);
    expect(sample(await scrape(a.app), 'proto_rate_limiter_errors_total')).toBe(0);
  });
});
