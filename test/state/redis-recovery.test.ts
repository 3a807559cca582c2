import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { RedisStore } from '../../src/state/redis-store.js';
import { StoreUnavailableError } from '../../src/state/store.js';
import { describeWhenAvailable } from '../helpers/redis.js';
import { redisBinariesProblem, startRedisServer, type RedisServer } from '../helpers/redis-server.js';

describeWhenAvailable('RedisStore when Redis goes away and comes back', redisBinariesProblem(), () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.remove();
  });

  it('fails closed while Redis is down and recovers without a restart', { timeout: 15_000 }, async () => {
    const store = await RedisStore.connect(server.url, { commandTimeoutMs: 500 });
    try {
      await store.set('cart', 'before', 60_000);

      await server.stop();
      await expect(store.get('cart')).rejects.toThrow(StoreUnavailableError);
      await expect(store.queue('outbox').enqueue({ id: 'e1', payload: 'p' })).rejects.toThrow(StoreUnavailableError);
      await expect(store.ping()).rejects.toThrow(StoreUnavailableError);

      await server.start(); // empty: nothing was saved
      await vi.waitFor(() => store.ping(), { timeout: 10_000, interval: 100 });
      expect(await store.get('cart')).toBeNull();
      expect(await store.set('cart', 'after', 60_000)).toBe(1);
      expect(await store.get('cart')).toEqual({ value: 'after', version: 1 });
    } finally {
      await store.close();
    }
  });

  it('starts before Redis does and serves once it answers', { timeout: 15_000 }, async () => {
    await server.stop();
    const store = await RedisStore.connect(server.url);
    try {
      await expect(store.setIfAbsent('k', 1, 60_000)).rejects.toThrow(StoreUnavailableError);
      await server.start();
      await vi.waitFor(() => store.ping(), { timeout: 10_000, interval: 100 });
      expect(await store.setIfAbsent('k', 1, 60_000)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('answers fast with StoreUnavailableError when a connected Redis stops answering', { timeout: 15_000 }, async () => {
    const store = await RedisStore.connect(server.url, { commandTimeoutMs: 300 });
    try {
      await store.ping();
      process.kill(server.pid, 'SIGSTOP'); // alive but silent: only the command timeout can tell
      try {
        await expect(store.set('k', 1, 60_000)).rejects.toThrow(StoreUnavailableError);
      } finally {
        process.kill(server.pid, 'SIGCONT');
      }
      await vi.waitFor(() => store.ping(), { timeout: 10_000, interval: 100 });
    } finally {
      await store.close();
    }
  });
});
