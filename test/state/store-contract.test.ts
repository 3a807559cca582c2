import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../src/state/memory-store.js';
import { RedisStore } from '../../src/state/redis-store.js';
import { StoreUnavailableError, type StateStore } from '../../src/state/store.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { injectedKeyTime, ManualClock, randomPrefix, serverKeyTime, storeContract } from './store-contract.js';

describe('MemoryStore', () => {
  storeContract(() => {
    let store: MemoryStore | undefined; // one process: its "replicas" share the instance
    return { open: async (now) => (store ??= new MemoryStore({ now })) };
  }, injectedKeyTime);

  afterEach(() => {
    vi.useRealTimers();
  });

  it('expires a key exactly at its TTL on the injected clock', async () => {
    const clock = new ManualClock();
    const store = new MemoryStore({ now: clock.now });
    await store.set('k', 'v', 1000);
    clock.advance(999);
    expect(await store.get('k')).toEqual({ value: 'v', version: 1 });
    clock.advance(1);
    expect(await store.get('k')).toBeNull();
    await store.close();
  });

  it('drops expired keys that nobody reads again, on its own timer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const clock = new ManualClock();
    const store = new MemoryStore({ now: clock.now, sweepIntervalMs: 1000 });
    for (let i = 0; i < 100; i += 1) await store.set(`cart:${i}`, { i }, 5_000);
    await store.set('kept', true, 60_000);
    clock.advance(5_000);
    vi.advanceTimersByTime(1000);
    expect(store.sweep()).toBe(0); // the timer already dropped all 100
    expect(await store.get('kept')).toEqual({ value: true, version: 1 });
    clock.advance(55_000);
    expect(store.sweep()).toBe(1);
    await store.close();
  });

  it('sweeps a large store a slice at a time, every key within one pass however many arrive', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const sliced = async (ticks: number) => {
      const clock = new ManualClock();
      const store = new MemoryStore({ now: clock.now, sweepIntervalMs: 1000, sweepBatch: 100 });
      for (let i = 0; i < 250; i += 1) await store.set(`old:${i}`, { i }, 5_000);
      clock.advance(5_000);
      for (let tick = 0; tick < ticks; tick += 1) {
        vi.advanceTimersByTime(1000);
        for (let i = 0; i < 50; i += 1) await store.set(`new:${tick}:${i}`, { i }, 60_000); // keys arriving mid-pass
      }
      const left = store.sweep(); // what the timer had not dropped yet
      expect(await store.get('new:0:49')).toEqual({ value: { i: 49 }, version: 1 });
      await store.close();
      return left;
    };
    expect(await sliced(2)).toBe(50); // two slices of 100 keys
    expect(await sliced(3)).toBe(0); // the third ends the pass: the arrivals did not push the old keys out of it
  });
});

describeWithRedis('RedisStore', () => {
  storeContract(() => {
    const keyPrefix = randomPrefix();
    return {
      open: (now) => RedisStore.connect(REDIS_URL, { keyPrefix, now }),
      dispose: () => deleteKeys(REDIS_URL, keyPrefix),
    };
  }, serverKeyTime);

  it('keeps deployments with different key prefixes apart', async () => {
    const [prefixA, prefixB] = [randomPrefix(), randomPrefix()];
    const a = await RedisStore.connect(REDIS_URL, { keyPrefix: prefixA });
    const b = await RedisStore.connect(REDIS_URL, { keyPrefix: prefixB });
    try {
      await a.set('cart', 'a', 60_000);
      await a.queue('outbox').enqueue({ id: 'e1', payload: 'a' });
      expect(await b.get('cart')).toBeNull();
      expect(await b.queue('outbox').depth()).toEqual({ queued: 0, dead: 0 });
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([deleteKeys(REDIS_URL, prefixA), deleteKeys(REDIS_URL, prefixB)]);
    }
  });

  it('reports a command Redis refuses as the bug it is, not as unavailability', async () => {
    const keyPrefix = randomPrefix();
    const raw = new Redis(REDIS_URL);
    const store = await RedisStore.connect(REDIS_URL, { keyPrefix });
    try {
      await raw.set(`${keyPrefix}k:foreign`, 'written by something else');
      const failure = await store.get('foreign').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(failure).not.toBeInstanceOf(StoreUnavailableError);
      expect((failure as Error).message).toMatch(/WRONGTYPE/);
    } finally {
      await store.close();
      raw.disconnect();
      await deleteKeys(REDIS_URL, keyPrefix);
    }
  });
});

describe('RedisStore with nothing listening', () => {
  async function expectEveryCallUnavailable(store: StateStore) {
    const queue = store.queue<string>('outbox');
    const calls: Array<Promise<unknown>> = [
      store.ping(),
      store.get('k'),
      store.set('k', 1, 1000),
      store.getText('k'),
      store.setText('k', 'v', 1000),
      store.setIfAbsent('k', 1, 1000),
      store.compareAndSet('k', 0, 1, 1000),
      store.delete('k'),
      queue.enqueue({ id: 'e1', payload: 'p' }),
      queue.claim(1, 1000),
      queue.ack({ id: 'e1', group: 'e1', payload: 'p', attempts: 0, token: '1' }),
      queue.retry({ id: 'e1', group: 'e1', payload: 'p', attempts: 0, token: '1' }, Date.now()),
      queue.deadLetter({ id: 'e1', group: 'e1', payload: 'p', attempts: 0, token: '1' }, 'r'),
      queue.listDead(),
      queue.replay('e1'),
      queue.depth(),
    ];
    for (const call of calls) await expect(call).rejects.toThrow(StoreUnavailableError);
  }

  // The test timeout is the guard against hanging: a fail-fast store answers in milliseconds.
  it('fails every call with StoreUnavailableError, without hanging', { timeout: 5_000 }, async () => {
    const store = await RedisStore.connect('redis://127.0.0.1:1', { commandTimeoutMs: 200 });
    try {
      await expectEveryCallUnavailable(store);
    } finally {
      await store.close();
    }
  });

  it('does the same in Cluster mode', { timeout: 5_000 }, async () => {
    const store = await RedisStore.connect('redis+cluster://127.0.0.1:1,127.0.0.1:2', { commandTimeoutMs: 200 });
    try {
      await expectEveryCallUnavailable(store);
    } finally {
      await store.close();
    }
  });
});
