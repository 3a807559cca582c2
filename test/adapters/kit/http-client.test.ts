import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BackendError } from '../../../adapters/contract.js';
import { deadline, HttpClient, retryAfterMs, unavailable } from '../../../adapters/kit/http-client.js';

let server: Server;
let base: string;
let sockets = 0;
let handle: (path: string, res: ServerResponse) => void = (_path, res) => res.end('ok');
const hanging = new Set<ServerResponse>();
const clients: HttpClient[] = [];
const client = (options: ConstructorParameters<typeof HttpClient>[0]) => {
  const made = new HttpClient(options);
  clients.push(made);
  return made;
};

beforeAll(async () => {
  server = createServer((req, res) => handle(req.url ?? '/', res));
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const res of hanging) res.destroy();
  hanging.clear();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  handle = (_path, res) => res.end('ok');
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('adapter kit: Retry-After', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');

  it('reads seconds and HTTP dates, and caps what a store asks for at a minute', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('Fri, 27 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Fri, 27 Nov 2026 11:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('86400', now)).toBe(60_000);
    for (const nothing of [undefined, '', '  ', 'soon']) expect(retryAfterMs(nothing, now)).toBeUndefined();
  });

  it('makes 429 and 5xx retryable with the wait the store names, and leaves other statuses to the adapter', () => {
    const throttled = unavailable('search', { status: 429, headers: { 'retry-after': 'Fri, 27 Nov 2026 12:00:03 GMT' } }, now);
    expect(throttled).toBeInstanceOf(BackendError);
    expect(throttled).toMatchObject({ retryable: true, retryAfterMs: 3000, message: 'search: the store answered 429 (throttled)' });
    const limited = unavailable('cart', { status: 429, headers: { 'ratelimit-retry-after': '5' } }, now, 'ratelimit-retry-after');
    expect(limited).toMatchObject({ retryAfterMs: 5000 });
    expect(unavailable('order', { status: 503, headers: {} }, now)).toMatchObject({ retryable: true, retryAfterMs: undefined });
    for (const status of [200, 301, 400, 401, 404, 422]) expect(unavailable('x', { status, headers: {} }, now)).toBeUndefined();
  });
});

describe('adapter kit: deadline', () => {
  it("aborts at the timeout as a TimeoutError, or at the caller's abort, and never once the call cleared it", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const running = deadline(undefined, 10);
      const cleared = deadline(undefined, 10);
      cleared.clear();
      const caller = new AbortController();
      const early = deadline(caller.signal, 60_000);
      caller.abort(new Error('buyer left'));
      expect((early.signal.reason as Error).message).toBe('buyer left');
      vi.advanceTimersByTime(9);
      expect(running.signal.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      expect((running.signal.reason as Error).name).toBe('TimeoutError');
      vi.advanceTimersByTime(60_000);
      expect(cleared.signal.aborted).toBe(false);
      early.clear();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('adapter kit: HTTP client', () => {
  it('keeps connections alive: once connected, further calls open no socket', async () => {
    const http = client({ timeoutMs: 5_000 });
    await Promise.all([1, 2].map((n) => http.send('warm-up', { method: 'GET', url: `${base}/${n}` })));
    const connected = sockets;
    for (const path of ['a', 'b', 'c', 'd']) expect((await http.send(path, { method: 'GET', url: `${base}/${path}` })).text).toBe('ok');
    expect(sockets).toBe(connected);
    // Another client has connections of its own.
    await client({ timeoutMs: 5_000 }).send('other', { method: 'GET', url: `${base}/e` });
    expect(sockets).toBe(connected + 1);
  });

  it("cuts off a store that does not answer at the client's timeout, as a retryable error", async () => {
    handle = (_path, res) => void hanging.add(res);
    const http = client({ timeoutMs: 100 });
    const error = await http.send('tenant t: search', { method: 'GET', url: `${base}/slow` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ retryable: true, message: 'tenant t: search: the store is unreachable (no answer within 100 ms)' });
  });

  it("gives the caller's own reason back when the caller's deadline fires first", async () => {
    handle = (_path, res) => void hanging.add(res);
    const http = client({ timeoutMs: 10_000 });
    const reason = new Error('attempt deadline');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    const error = await http.send('x', { method: 'GET', url: `${base}/slow`, signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBe(reason);
  });

  it("leaves a caller's deadline alone, unless the client caps every call", async () => {
    handle = (_path, res) => void hanging.add(res);
    const reason = new Error('attempt deadline');
    // Both deadlines on a fake clock: the caller's at 400 ms, the client's own at 50 ms.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const send = (options: { timeoutMs: number; capsCallerDeadline?: boolean }) => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(reason), 400);
        return client(options)
          .send('x', { method: 'GET', url: `${base}/slow`, signal: controller.signal })
          .catch((e: unknown) => e);
      };
      const free = send({ timeoutMs: 50 });
      await vi.advanceTimersByTimeAsync(400);
      expect(await free).toBe(reason);
      const capped = send({ timeoutMs: 50, capsCallerDeadline: true });
      await vi.advanceTimersByTimeAsync(400);
      expect(await capped).toMatchObject({ retryable: true, message: 'x: the store is unreachable (no answer within 50 ms)' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers an unreachable store with a retryable error that names no address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/x?key=secret`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await client({ timeoutMs: 2_000 })
      .send('ping', { method: 'GET', url })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true, message: 'ping: the store is unreachable (ECONNREFUSED)' });
    expect((error as Error).message).not.toContain('secret');
  });

  it('reads no more than the cap, and no body the caller does not want', async () => {
    handle = (path, res) => res.writeHead(path === '/big' ? 200 : 500, { 'x-n': ['1', '2'] }).end('x'.repeat(2048));
    const http = client({ timeoutMs: 5_000, maxBodyBytes: 1024 });
    const big = await http.send('big', { method: 'GET', url: `${base}/big` });
    expect(big.status).toBe(200);
    expect(big.text).toBeUndefined();
    const skipped = await http.send('err', { method: 'GET', url: `${base}/err`, readBody: (status) => status < 300 });
    expect(skipped).toEqual({ status: 500, headers: expect.objectContaining({ 'x-n': '1, 2' }) });
  });

  it("gives a body cut off by the store as an answer without text, one cut off by a deadline as that deadline's error", async () => {
    const started = (res: ServerResponse) =>
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' }).write('{"a"');
    handle = (_path, res) => {
      started(res);
      setTimeout(() => res.destroy(), 20);
    };
    const http = client({ timeoutMs: 5_000 });
    expect(await http.send('cut', { method: 'GET', url: `${base}/cut` })).toEqual({ status: 200, headers: expect.any(Object) });
    handle = (_path, res) => {
      started(res);
      hanging.add(res);
    };
    const reason = new Error('attempt deadline');
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 50);
    expect(await http.send('x', { method: 'GET', url: `${base}/slow`, signal: controller.signal }).catch((e: unknown) => e)).toBe(reason);
    const own = await client({ timeoutMs: 50 })
      .send('x', { method: 'GET', url: `${base}/slow` })
      .catch((e: unknown) => e);
    expect(own).toMatchObject({ retryable: true, message: 'x: the store is unreachable (no answer within 50 ms)' });
  });

  it('sends the method, headers and body it is given', async () => {
    let seen = '';
    server.once('request', (req) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => (seen = `${req.method} ${String(req.headers['x-api-key'])} ${body}`));
    });
    handle = (_path, res) => setTimeout(() => res.end('{}'), 10);
    await client({ timeoutMs: 5_000 }).send('post', { method: 'POST', url: `${base}/p`, headers: { 'x-api-key': 'k1' }, body: '{"a":1}' });
    expect(seen).toBe('POST k1 {"a":1}');
  });
});
