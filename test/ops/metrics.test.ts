import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BackendError } from '../../adapters/contract.js';
import { Metrics } from '../../src/observability/metrics.js';
import { buildServer } from '../../src/server.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { StoreUnavailableError } from '../../src/state/store.js';
import { TenantRegistry } from '../../src/tenancy/registry.js';
import { assembleTenant } from '../../src/tenancy/tenant.js';
import { counterOperations } from '../helpers/counter-operation.js';
import { baseTenantConfig, testGateway, type TestGateway } from '../helpers/gateway.js';
import { stubAdapter } from '../helpers/stub-adapter.js';
import { labelValues, sample, scrape } from './helpers/prometheus.js';

describe('/metrics', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await testGateway({ operations: counterOperations });
  });
  afterAll(() => gw.close());

  const bump = (id: string, headers: Record<string, string>, by = 1) =>
    gw.app.inject({ method: 'POST', url: `/counters/${id}/bump`, headers, payload: JSON.stringify({ by }) });

  it('is Prometheus text, on the admin listener only', async () => {
    const res = await gw.app.admin.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE proto_requests_total counter');
    expect(res.body).toContain('# TYPE process_cpu_user_seconds_total counter');
  });

  it("is not served on the tenants' port, whatever the host or the spelling of the path", async () => {
    for (const url of ['/metrics', '/%6detrics', '/%2e/metrics', '/x/../metrics', '/metrics/']) {
      for (const host of ['shop.example', 'localhost', 'admin.internal']) {
        const res = await gw.app.inject({ method: 'GET', url, headers: { host } });
        expect(res.statusCode, `${host}${url}`).toBe(404);
        expect(res.body, `${host}${url}`).not.toContain('proto_requests_total');
      }
    }
  });

  it('counts requests by tenant, operation, transport and status, with a latency histogram', async () => {
    const id = randomUUID();
    await bump(id, gw.headers());
    await bump(id, gw.headers());
    await gw.app.inject({ method: 'GET', url: `/counters/${id}`, headers: gw.headers() });
    await gw.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_counter', arguments: { meta: gw.meta(), id } } },
    });
    await gw.app.inject({
      method: 'POST',
      url: `/counters/${id}/bump`,
      headers: gw.headers({ 'idempotency-key': undefined }),
      payload: '{"by":1}',
    });

    const text = await scrape(gw.app);
    expect(sample(text, 'proto_requests_total', { tenant: 'shop', operation: 'bump_counter', transport: 'rest', status: '201' })).toBe(2);
    expect(sample(text, 'proto_requests_total', { tenant: 'shop', operation: 'bump_counter', transport: 'rest', status: '400' })).toBe(1);
    expect(sample(text, 'proto_requests_total', { tenant: 'shop', operation: 'read_counter', transport: 'rest', status: '200' })).toBe(1);
    expect(sample(text, 'proto_requests_total', { tenant: 'shop', operation: 'read_counter', transport: 'mcp', status: '200' })).toBe(1);
    expect(sample(text, 'proto_request_duration_seconds_count', { tenant: 'shop', operation: 'bump_counter', transport: 'rest' })).toBe(3);
    expect(
      sample(text, 'proto_request_duration_seconds_bucket', { tenant: 'shop', operation: 'bump_counter', transport: 'rest', le: '+Inf' }),
    ).toBe(3);
  });

  it('keeps labels bounded: paths that match no route are operation="unknown"', async () => {
    const unknown = (text: string) => sample(text, 'proto_requests_total', { operation: 'unknown', status: '404' }) ?? 0;
    const before = unknown(await scrape(gw.app));
    for (const path of ['/nope', '/nope/2', `/random/${randomUUID()}`]) await gw.app.inject({ method: 'GET', url: path });
    const text = await scrape(gw.app);
    expect(unknown(text) - before).toBe(3);
    const operations = labelValues(text, 'proto_requests_total', 'operation');
    expect(operations.every((op) => !op.includes('nope') && !op.includes('random'))).toBe(true);
  });

  it('counts idempotency replays and conflicts', async () => {
    const id = randomUUID();
    const headers = gw.headers();
    await bump(id, headers, 1);
    await bump(id, headers, 1); // replay
    await bump(id, headers, 2); // same key, other body
    const text = await scrape(gw.app);
    const at = (outcome: string) =>
      sample(text, 'proto_idempotency_requests_total', { tenant: 'shop', operation: 'bump_counter', outcome });
    expect(at('replayed')).toBeGreaterThanOrEqual(1);
    expect(at('conflict')).toBeGreaterThanOrEqual(1);
    expect(at('executed')).toBeGreaterThanOrEqual(1);
    const before = at('replayed')!;
    await bump(id, headers, 1);
    expect(
      sample(await scrape(gw.app), 'proto_idempotency_requests_total', { tenant: 'shop', operation: 'bump_counter', outcome: 'replayed' }),
    ).toBe(before + 1);
  });

  it('counts negotiation cache hits and misses', async () => {
    const before = await scrape(gw.app);
    const path = `/profiles/${randomUUID()}`;
    gw.platform.serve(path, { proto: { version: '2026-04-08', capabilities: { 'dev.proto.shopping.cart': [{ version: '2026-04-08' }] } } });
    for (let i = 0; i < 3; i++)
      await gw.app.inject({ method: 'GET', url: '/counters/x', headers: gw.headers({ 'proto-agent': gw.platform.agent(path) }) });
    const after = await scrape(gw.app);
    const delta = (result: string) =>
      sample(after, 'proto_profile_cache_lookups_total', { result })! - sample(before, 'proto_profile_cache_lookups_total', { result })!;
    expect(delta('miss')).toBe(1);
    expect(delta('hit')).toBe(2);
    expect(gw.platform.hits(path)).toBe(1);
  });

  it('reads outbox depth from the queue on every scrape and counts delivery attempts', async () => {
    const queue = gw.store.queue<string>(`webhooks-${randomUUID()}`);
    const outbox = gw.app.metrics.outbox('webhooks', queue);
    await queue.enqueue({ id: 'e1', payload: 'one' });
    await queue.enqueue({ id: 'e2', payload: 'two' });
    let text = await scrape(gw.app);
    expect(sample(text, 'proto_outbox_jobs', { queue: 'webhooks', state: 'queued' })).toBe(2);
    expect(sample(text, 'proto_outbox_jobs', { queue: 'webhooks', state: 'dead' })).toBe(0);

    const [first, second] = await queue.claim(2, 60_000);
    await queue.ack(first!);
    outbox.attempt('delivered');
    await queue.deadLetter(second!, 'HTTP 410');
    outbox.attempt('dead_lettered');
    text = await scrape(gw.app);
    expect(sample(text, 'proto_outbox_jobs', { queue: 'webhooks', state: 'queued' })).toBe(0);
    expect(sample(text, 'proto_outbox_jobs', { queue: 'webhooks', state: 'dead' })).toBe(1);
    expect(sample(text, 'proto_outbox_delivery_attempts_total', { queue: 'webhooks', outcome: 'delivered' })).toBe(1);
    expect(sample(text, 'proto_outbox_delivery_attempts_total', { queue: 'webhooks', outcome: 'dead_lettered' })).toBe(1);
  });

  it('leaves an unreachable outbox out of the scrape instead of failing it', async () => {
    gw.app.metrics.outbox('broken', { depth: () => Promise.reject(new StoreUnavailableError('Redis did not answer')) });
    const text = await scrape(gw.app);
    expect(sample(text, 'proto_outbox_jobs', { queue: 'broken', state: 'queued' })).toBeUndefined();
    expect(sample(text, 'proto_requests_total', { operation: 'read_counter', transport: 'rest', status: '200' })).toBeGreaterThan(0);
  });

  it('belongs to one app: requests to another app in the same process do not show', async () => {
    const other = await testGateway({ operations: counterOperations });
    try {
      await bump(randomUUID(), gw.headers());
      const mine = sample(await scrape(gw.app), 'proto_requests_total', { operation: 'bump_counter', status: '201' });
      expect(mine).toBeGreaterThan(0);
      expect(sample(await scrape(other.app), 'proto_requests_total', { operation: 'bump_counter', status: '201' })).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('backend call metrics', () => {
  let app: Awaited<ReturnType<typeof buildServer>> | undefined;
  afterEach(() => app?.close());

  it('observe every attempt of every adapter call, by tenant, method and outcome', async () => {
    const metrics = new Metrics();
    let pings = 0;
    const flaky = {
      ...stubAdapter(),
      // First probe: fails once (retryable) then answers; every later probe answers at once.
      ping: async () => {
        if (++pings === 1) throw new BackendError('backend said 503', true);
      },
    };
    const tenant = assembleTenant({ config: { ...baseTenantConfig, policies: { backend: { attempts: 2 } } }, file: 'shop.yaml' }, flaky, {
      observe: metrics.backendObserver('shop', 'memory'),
    });
    app = await buildServer({
      settings: { bodyLimitBytes: 65_536, logLevel: 'silent' },
      tenants: new TenantRegistry([tenant]),
      store: new MemoryStore(),
      metrics,
    });
    // The operator listener's readiness detail pings every backend.
    expect((await app.admin.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
      ready: true,
      checks: { 'adapter:shop': 'ok' },
    });
    await app.admin.inject({ method: 'GET', url: '/readyz' });

    const text = await scrape(app);
    expect(sample(text, 'proto_backend_call_duration_seconds_count', { tenant: 'shop', method: 'ping', outcome: 'error' })).toBe(1);
    expect(sample(text, 'proto_backend_call_duration_seconds_count', { tenant: 'shop', method: 'ping', outcome: 'ok' })).toBe(2);
    expect(
      sample(text, 'proto_backend_call_duration_seconds_sum', { tenant: 'shop', method: 'ping', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(0);
  });
});
