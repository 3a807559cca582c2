/** login-throttle.test.ts against the Redis store: every replica's reservations meet in one counter. */
import { afterAll, afterEach, expect, it } from 'vitest';
import { RedisStore } from '../../src/state/redis-store.js';
import { deleteKeys, describeWithRedis, REDIS_URL } from '../helpers/redis.js';
import { randomPrefix } from '../state/store-contract.js';
import { acrossAccounts, againstOneAccount, guessingGateway, RIGHT, type GuessingGateway } from './helpers/parallel-guesses.js';

describeWithRedis('parallel password guesses (Redis store)', () => {
  const keyPrefix = randomPrefix();
  let guessing: GuessingGateway | undefined;
  let store: RedisStore | undefined;
  afterEach(async () => {
    await guessing?.close();
    await store?.close();
    guessing = undefined;
  });
  afterAll(() => deleteKeys(REDIS_URL, keyPrefix));

  it('40 guesses at one account at once: at most 5 reach the password check, the rest are refused (429)', async () => {
    store = await RedisStore.connect(REDIS_URL, { keyPrefix: `${keyPrefix}a:` });
    guessing = await guessingGateway(store);
    const statuses = await guessing.guess(againstOneAccount());
    expect(guessing.checked()).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    // The burst spent the account's attempts: now even its right password is refused.
    expect(await guessing.guess([RIGHT])).toEqual([429]);
    expect(guessing.checked()).toBeLessThanOrEqual(5);
  });

  it('40 guesses at 40 accounts at once from one address: at most 20 reach the password check', async () => {
    store = await RedisStore.connect(REDIS_URL, { keyPrefix: `${keyPrefix}b:` });
    guessing = await guessingGateway(store);
    await guessing.guess(acrossAccounts());
    expect(guessing.checked()).toBeLessThanOrEqual(20);
  });
});
