import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TenantConfig } from '../../src/config/tenant-schema.js';
import { RedisStore } from '../../src/state/redis-store.js';
import type { StateStore } from '../../src/state/store.js';
import { platformProfile, startPlatform } from '../helpers/platform.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { deleteKeys, describeWhenAvailable, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { redisBinariesProblem, startRedisCluster, startRedisServer, type RedisCluster, type RedisServer } from '../helpers/redis-server.js';
import { echo } from './helpers/echo-operation.js';
import { MAX_BATCH } from '../../src/transports/mcp/mcp-transport.js';
import { secureGateway, type Outgoing, type SecureGateway } from '../security/helpers/secure-gateway.js';
import { sample, scrape } from './helpers/prometheus.js';

type RateLimits = NonNullable<NonNullable<TenantConfig['policies']>['rate_limits']>;

const limited = (rateLimits: RateLimits, store?: StateStore) =>
  testGateway({
    operations: [echo],
    tenant: { policies: { allow_loopback_profiles: true, rate_limits: rateLimits } },
    ...(store && { store }),
  });

let addresses = 0;
/** Another network address: unverified callers are told apart by address, not by the profile they name. */
const otherAddress = () => `198.51.100.${++addresses}`;

/** A second platform profile on the same test server: with another address, another caller. */
function otherCaller(gw: TestGateway): string {
  const path = `/profiles/${randomUUID()}`;
  gw.platform.serve(path, platformProfile());
  return gw.platform.agent(path);
}

const call = (gw: TestGateway, headers: Record<string, string | undefined> = {}, remoteAddress?: string) =>
  gw.app.inject({ method: 'GET', url: `/echo/${randomUUID()}`, headers: gw.headers(headers), ...(remoteAddress && { remoteAddress }) });

/** An order status page with no valid link: refused by the page, after the per-request limit counted it. */
const orderPage = (gw: TestGateway, remoteAddress?: string) =>
  gw.app.inject({
    method: 'GET',
    url: `/order-status/${randomUUID()}?t=x`,
    headers: gw.headers(),
    ...(remoteAddress && { remoteAddress }),
  });

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
    expect((await call(gw, { 'proto-agent': otherCaller(gw) }, otherAddress())).statusCode).toBe(200);
    expect(sample(await scrape(gw.app), 'proto_rate_limited_total', { tenant: 'shop', scope: 'caller' })).toBe(1);
  });

  it('share one budget among all callers of a tenant with per_tenant', async () => {
    const gw = await gateway({ per_tenant: { max: 3, window_seconds: 60 } });
    for (let i = 0; i < 3; i++) expect((await call(gw, { 'proto-agent': otherCaller(gw) }, otherAddress())).statusCode).toBe(200);
    const refused = await call(gw, { 'proto-agent': otherCaller(gw) }, otherAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().content).toContain('all callers of Test Shop');
    expect(sample(await scrape(gw.app), 'proto_rate_limited_total', { tenant: 'shop', scope: 'tenant' })).toBe(1);
  });

  it('spend nothing of the tenant budget on calls a caller limit refuses; once it is spent, refuse before fetching a profile', async () => {
    const gw = await gateway({ per_caller: { max: 1, window_seconds: 60 }, per_tenant: { max: 3, window_seconds: 60 } });
    expect((await call(gw)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(gw)).statusCode).toBe(429);
    expect((await call(gw, { 'proto-agent': otherCaller(gw) }, otherAddress())).statusCode).toBe(200);
    expect((await call(gw, { 'proto-agent': otherCaller(gw) }, otherAddress())).statusCode).toBe(200);
    const path = `/profiles/${randomUUID()}`;
    gw.platform.serve(path, platformProfile());
    const refused = await call(gw, { 'proto-agent': gw.platform.agent(path) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().content).toContain('all callers of Test Shop');
    expect(gw.platform.hits(path)).toBe(0);
  });

  it('never limit discovery or health', async () => {
    const gw = await gateway({ per_tenant: { max: 1, window_seconds: 60 }, per_caller: { max: 1, window_seconds: 60 } });
    await call(gw);
    expect((await call(gw)).statusCode).toBe(429);
    for (const url of ['/.well-known/proto', '/healthz', '/readyz']) {
      for (let i = 0; i < 3; i++) expect((await gw.app.inject({ method: 'GET', url, headers: gw.headers() })).statusCode, url).toBe(200);
    }
  });

  it("give a verified API key its own budget; an invalid key shares its address's; neither is logged", async () => {
    const platform = await startPlatform();
    const key = 'key-one-secret-value';
    const gw = await testGateway({
      operations: [echo],
      platform,
      tenant: {
        policies: { allow_loopback_profiles: true, rate_limits: { per_caller: { max: 1, window_seconds: 60 } } },
        auth: { api_keys: [{ sha256: createHash('sha256').update(key).digest('hex'), profile: platform.url() }] },
      },
    });
    gateways.push(gw);
    // Authentication refuses the unknown keys (401), and each refusal spends the claim's budget.
    expect((await call(gw, { 'x-api-key': 'forged-key-one' })).statusCode).toBe(401);
    expect((await call(gw, { 'x-api-key': 'forged-key-two' })).statusCode).toBe(429);
    expect((await call(gw, { authorization: 'Bearer forged-token' })).statusCode).toBe(429);
    expect((await call(gw, { 'x-api-key': key })).statusCode).toBe(200);
    expect((await call(gw, { 'x-api-key': key })).statusCode).toBe(429);
    const logs = gw.rawLogs.join('\n');
    for (const secret of [key, 'forged-key-one', 'forged-token']) expect(logs).not.toContain(secret);
    await platform.close();
  });

  it('budget unverified claims per network address, however the claimed profile URL varies', async () => {
    const gw = await gateway({ per_caller: { max: 10, window_seconds: 60 } });
    const rotating = (n: number) => {
      const path = `/rotating/${n}`;
      gw.platform.serve(path, platformProfile());
      return gw.platform.agent(path);
    };
    const statuses: number[] = [];
    for (let n = 0; n < 30; n++) statuses.push((await call(gw, { 'proto-agent': rotating(n) })).statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    // A query string (the issue's ?rot=N) is no profile URL at all, and still spends the address's budget.
    const queried = await call(gw, { 'proto-agent': `profile="${gw.platform.url()}?rot=31"` });
    expect(queried.statusCode).toBe(429);
    // Another address has its own budget.
    const elsewhere = await gw.app.inject({
      method: 'GET',
      url: `/echo/${randomUUID()}`,
      headers: gw.headers({ 'proto-agent': rotating(99) }),
      remoteAddress: '198.51.100.9',
    });
    expect(elsewhere.statusCode).toBe(200);
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
    for (let i = 0; i < 5; i++) expect((await orderPage(gw)).statusCode).not.toBe(429);
  });

  it('count each request of a route outside the pipeline (an order page) against the caller', async () => {
    const gw = await gateway({ per_caller: { max: 2, window_seconds: 60 } });
    for (let i = 0; i < 2; i++) expect((await orderPage(gw)).statusCode).not.toBe(429);
    const refused = await orderPage(gw);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 'rate_limited', content: expect.stringContaining('2 requests per 60 s') });
    expect((await orderPage(gw, otherAddress())).statusCode).not.toBe(429);
  });
});

describe('rate limits on MCP batches', () => {
  const gateways: TestGateway[] = [];
  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((gw) => gw.close()));
  });
  const batch = (gw: TestGateway, size: number, meta: () => Record<string, unknown> = () => gw.meta()) =>
    gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json' },
      payload: Array.from({ length: size }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'echo', arguments: { meta: meta(), id: `c${i}` } },
      })),
    });
  const refused = (answers: Array<{ id: number; error?: { data?: { code?: string } } }>) =>
    answers.filter((a) => a.error?.data?.code === 'rate_limited').map((a) => a.id).length;

  it('count every tool call of a batch against the caller: calls past the limit get the rate-limit error, the rest run', async () => {
    const gw = await limited({ per_caller: { max: 5, window_seconds: 60 } });
    gateways.push(gw);
    const res = await batch(gw, 8);
    expect(res.statusCode).toBe(200);
    const answers = res.json();
    expect(answers).toHaveLength(8);
    expect(answers.filter((a: { result?: unknown }) => a.result)).toHaveLength(5);
    expect(refused(answers)).toBe(3);
    const error = { code: -32000, data: { code: 'rate_limited', http_status: 429 } };
    expect(answers.find((a: { error?: unknown }) => a.error)).toMatchObject({ error });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused((await batch(gw, 2)).json())).toBe(2);
  });

  it('count every tool call of a batch against the tenant, whatever profile each claims', async () => {
    const gw = await limited({ per_tenant: { max: 5, window_seconds: 60 } });
    gateways.push(gw);
    const answers = (await batch(gw, 8, () => ({ 'proto-agent': { profile: gw.platform.url(`/profiles/${randomUUID()}`) } }))).json();
    expect(refused(answers)).toBe(3);
  });

  it(`refuse a batch of more than ${MAX_BATCH} messages with -32602 request_too_large before running any`, async () => {
    const gw = await limited({ per_tenant: { max: 1000, window_seconds: 60 } });
    gateways.push(gw);
    const res = await batch(gw, MAX_BATCH + 1);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32602, data: { code: 'request_too_large' } } });
    expect((await batch(gw, MAX_BATCH)).json()).toHaveLength(MAX_BATCH);
  });
});

describe('rate limits by verified identity', () => {
  let gw: SecureGateway;
  beforeAll(async () => {
    const policies = { allow_loopback_profiles: true, rate_limits: { per_caller: { max: 5, window_seconds: 60 } } };
    gw = await secureGateway({ tenant: (platform) => ({ policies, auth: { signatures: { profiles: [platform.url()] } } }) });
  });
  afterAll(() => gw.close());
  const read = (sign: boolean, remoteAddress = '127.0.0.1') => {
    const request = gw.request({ method: 'GET', path: `/counters/${randomUUID()}`, ...(!sign && { sign: false as const }) });
    return gw.send({ ...request, remoteAddress } as Outgoing);
  };

  it("unsigned calls merely claiming a platform's profile never spend the signed platform's budget", async () => {
    for (let i = 0; i < 5; i++) expect((await read(false)).statusCode).not.toBe(429);
    expect((await read(false)).statusCode).toBe(429);
    // The real platform, signing, has its own budget ...
    for (let i = 0; i < 5; i++) expect((await read(true)).statusCode).toBe(200);
    // ... keyed by who it is, not where it calls from.
    expect((await read(true, '198.51.100.7')).statusCode).toBe(429);
    // Claims from another address have a budget of their own.
    expect((await read(false, '198.51.100.7')).statusCode).not.toBe(429);
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
      // {prefix}rl:{scope}:{tenant}:{budget}, nothing else between them.
      for (const key of keys) expect(key).toMatch(new RegExp(`^${prefix}rl:(caller|tenant):shop:[\\w:.+/=-]+$`));
      expect(keys.join('\n')).not.toContain('undefined');
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
    for (let i = 0; i < 2; i++)
      replicas.push(await limited({ per_caller: { max: 2, window_seconds: 60 }, per_tenant: { max: 100, window_seconds: 60 } }, store));
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
    expect((await call(b, { 'proto-agent': otherCaller(b) }, otherAddress())).statusCode).toBe(200);
    expect(sample(await scrape(a.app), 'proto_rate_limiter_errors_total')).toBe(0);
  });
});
