/**
 * The login page's attempt limits hold under concurrency (issue 46 item 1): an attempt is
 * reserved before the password is checked, so guesses sent at once cannot all slip past a check
 * that ran before any of them was counted. In-process store; the Redis store in
 * login-throttle.redis.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { acrossAccounts, againstOneAccount, guessingGateway, RIGHT, type GuessingGateway } from './helpers/parallel-guesses.js';

let guessing: GuessingGateway | undefined;
afterEach(async () => {
  await guessing?.close();
  guessing = undefined;
});

describe('parallel password guesses (memory store)', () => {
  it('40 guesses at one account at once: at most 5 reach the password check, the rest are refused (429)', async () => {
    guessing = await guessingGateway();
    const statuses = await guessing.guess(againstOneAccount());
    expect(guessing.checked()).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(35);
    // The burst spent the account's attempts: now even its right password is refused.
    expect(await guessing.guess([RIGHT])).toEqual([429]);
    expect(guessing.checked()).toBeLessThanOrEqual(5);
  });

  it('40 guesses at 40 accounts at once from one address: at most 20 reach the password check', async () => {
    guessing = await guessingGateway();
    const statuses = await guessing.guess(acrossAccounts());
    expect(guessing.checked()).toBeLessThanOrEqual(20);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
  });
});
