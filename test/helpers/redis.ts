/**
 * Redis for tests: the URL, a once-per-process probe, and `describeWithRedis`, which runs a
 * suite when Redis answers, reports it skipped with the reason when it does not, and fails it
 * when CI=true (CI must never silently skip a Redis test).
 */
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const IN_CI = process.env.CI === 'true';

async function probe(url: string): Promise<string | undefined> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  let cause: Error | undefined; // the socket error says more than the rejection ("Connection is closed.")
  client.on('error', (error: Error) => (cause ??= error));
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return (cause ?? (error as Error)).message;
  } finally {
    client.disconnect();
  }
}

const redisProblem = await probe(REDIS_URL);

/**
 * Runs `fn` as a suite when `problem` is undefined. Otherwise the suite is reported skipped,
 * its title saying why, or, with CI=true, it fails with that reason.
 */
export function describeWhenAvailable(name: string, problem: string | undefined, fn: () => void): void {
  if (problem && IN_CI) {
    describe(name, () => {
      it('has what it needs (CI=true never skips)', () => {
        throw new Error(`CI=true and ${problem}`);
      });
    });
    return;
  }
  describe.skipIf(problem !== undefined)(problem ? `${name} [skipped: ${problem}]` : name, fn);
}

export function describeWithRedis(name: string, fn: () => void): void {
  const where = REDIS_URL.replace(/\/\/[^@/]*@/, '//'); // no credentials in test output
  const problem = redisProblem && `no Redis answers at ${where} (${redisProblem}); start one or set REDIS_URL`;
  describeWhenAvailable(name, problem, fn);
}

/** Removes every key under `prefix` (test namespaces are random; queues have no TTL). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 0 });
  try {
    for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await client.unlink(...keys);
    }
  } finally {
    client.disconnect();
  }
}
