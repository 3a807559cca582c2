import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Idempotency } from '../../src/pipeline/idempotency.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { RedisStore } from '../../src/state/redis-store.js';
import type { StateStore } from '../../src/state/store.js';
import { counterOperations } from '../helpers/counter-operation.js';
import { testGateway, type TestGateway } from '../helpers/gateway.js';
import { describeWithRedis, REDIS_URL } from '../helpers/redis.js';

function idempotencySuite(makeStore: () => Promise<StateStore>) {
  let gw: TestGateway;
  let store: StateStore;
  beforeAll(async () => {
    store = await makeStore();
    gw = await testGateway({ operations: counterOperations, store });
  });
  afterAll(async () => {
    await gw.close();
    await store.close();
  });

  const bump = (id: string, headers: Record<string, string>, body: unknown) =>
    gw.app.inject({ method: 'POST', url: `/counters/${id}/bump`, headers, payload: JSON.stringify(body) });
  const read = async (id: string) =>
    (await gw.app.inject({ method: 'GET', url: `/counters/${id}`, headers: gw.headers() })).json().value as number | undefined;

  it('a repeat with the same key and body returns the stored response, byte for byte, without executing again', async () => {
    const id = randomUUID();
    const headers = gw.headers();
    const first = await bump(id, headers, { by: 2 });
    const second = await bump(id, { ...headers, 'request-id': 'another-request' }, { by: 2 });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await read(id)).toBe(2);
  });

  it('replays any answer text exactly, line breaks, quotes and non-ASCII included', async () => {
    const idempotency = new Idempotency(store);
    const body = '{"note":"two\nlines"}\n"quoted" \\ Grüße 🌷\n';
    const execute = async () => ({ status: 201, outcome: 'success' as const, body });
    const key = `idem:test:${randomUUID()}`;
    const response = { status: 201, outcome: 'success', body };
    expect(await idempotency.run(key, 'fp', 60_000, execute)).toEqual({ response, replayed: false });
    // The record as other replicas (and older gateways' readers) find it: its fields as one JSON line, then the answer.
    expect((await store.getText(key))?.value).toBe(`{"state":"done","fingerprint":"fp","status":201,"outcome":"success"}\n${body}`);
    const replay = await idempotency.run(key, 'fp', 60_000, () => Promise.reject(new Error('executed again')));
    expect(replay).toEqual({ response, replayed: true });
  });

  it('replays a record kept before answers were stored as text (a rolling upgrade), and refuses another request with it', async () => {
    const idempotency = new Idempotency(store);
    const key = `idem:test:${randomUUID()}`;
    const body = '{"proto":{"status":"success"},"id":"chk_1"}';
    await store.set(key, { state: 'done', fingerprint: 'fp', status: 201, outcome: 'success', body }, 60_000);
    const replay = await idempotency.run(key, 'fp', 60_000, () => Promise.reject(new Error('executed again')));
    expect(replay).toEqual({ response: { status: 201, outcome: 'success', body }, replayed: true });
    await expect(idempotency.run(key, 'other', 60_000, () => Promise.reject(new Error('executed')))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
  });

  it('the same key with a different body is 409 idempotency_key_reused', async () => {
    const id = randomUUID();
    const headers = gw.headers();
    await bump(id, headers, { by: 1 });
    const conflict = await bump(id, headers, { by: 5 });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().code).toBe('idempotency_key_reused');
    expect(await read(id)).toBe(1);
  });

  it('the same key on another resource is a different request: 409', async () => {
    const headers = gw.headers();
    await bump(randomUUID(), headers, { by: 1 });
    expect((await bump(randomUUID(), headers, { by: 1 })).statusCode).toBe(409);
  });

  it('concurrent duplicates execute once and all get the same answer', async () => {
    const id = randomUUID();
    const headers = gw.headers();
    const responses = await Promise.all(Array.from({ length: 20 }, () => bump(id, headers, { by: 3 })));
    expect(new Set(responses.map((r) => r.statusCode))).toEqual(new Set([201]));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
    expect(await read(id)).toBe(3);
  });

  it('over MCP the key in meta behaves the same', async () => {
    const id = randomUUID();
    const call = (by: number) =>
      gw.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json' },
        payload: {
          jsonrpc: '2.0',
          id: randomUUID(),
          method: 'tools/call',
          params: { name: 'bump_counter', arguments: { meta: gw.meta({ 'idempotency-key': `mcp-${id}` }), id, cart: { by } } },
        },
      });
    const [a, b] = await Promise.all([call(4), call(4)]);
    expect(a.json().result.structuredContent).toEqual(b.json().result.structuredContent);
    expect((await call(9)).json().error).toMatchObject({ code: -32000, data: { code: 'idempotency_key_reused', http_status: 409 } });
    expect(await read(id)).toBe(4);
  });
}

describe('idempotency on the memory store', () => idempotencySuite(async () => new MemoryStore()));

describeWithRedis('idempotency on Redis', () =>
  idempotencySuite(() => RedisStore.connect(REDIS_URL, { keyPrefix: `test:${randomUUID()}:` })),
);

describe('idempotency fails closed', () => {
  it('answers 503 when the store is unreachable', async () => {
    const store = await RedisStore.connect('redis://127.0.0.1:1', { commandTimeoutMs: 200 });
    const gw = await testGateway({ operations: counterOperations, store });
    try {
      const res = await gw.app.inject({ method: 'POST', url: '/counters/x/bump', headers: gw.headers(), payload: '{"by":1}' });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('store_unavailable');
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      await gw.close();
      await store.close();
    }
  });
});
