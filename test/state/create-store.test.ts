import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../adapters/kit/config-error.js';
import { createStore } from '../../src/state/create-store.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { RedisStore } from '../../src/state/redis-store.js';
import type { StateStore } from '../../src/state/store.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { randomPrefix } from './store-contract.js';

let store: StateStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('createStore from the STORE setting', () => {
  it('"memory" is the in-process store', async () => {
    store = await createStore('memory');
    expect(store).toBeInstanceOf(MemoryStore);
    await store.set('k', 'v', 1000);
    expect(await store.get('k')).toEqual({ value: 'v', version: 1 });
  });

  it.each([
    ['http://127.0.0.1:6379', /redis:\/\/host:port/],
    ['redis://', /redis:\/\/host:port/],
    ['redis+cluster://', /at least one node/],
    ['redis+cluster://user:s3cret@10.0.0.1,10.0.0.2:7000', /"10\.0\.0\.1" must be host:port/],
  ])('refuses %s with a configuration error that names the fix and no secret', async (setting, message) => {
    const failure = await createStore(setting).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).not.toContain('s3cret');
  });
});

describeWithRedis('createStore with a Redis URL', () => {
  it('connects a Redis store with the given options', async () => {
    const keyPrefix = randomPrefix();
    store = await createStore(REDIS_URL, { keyPrefix });
    expect(store).toBeInstanceOf(RedisStore);
    await store.set('k', 'v', 60_000);
    const same = await RedisStore.connect(REDIS_URL, { keyPrefix });
    try {
      expect(await same.get('k')).toEqual({ value: 'v', version: 1 });
    } finally {
      await same.close();
      await deleteKeys(REDIS_URL, keyPrefix);
    }
  });
});
