import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BackendError, type Adapter, type LookupResult } from '../../adapters/contract.js';
import type { BackendPolicy } from '../../src/config/backend-policy.js';
import { resilientAdapter } from '../../src/tenancy/resilient-adapter.js';
import { stubAdapter } from '../helpers/stub-adapter.js';

const policy: BackendPolicy = { timeoutMs: 100, attempts: 3, baseDelayMs: 1, maxDelayMs: 1 };

/**
 * Deadlines run on vitest's fake clock (setTimeout), so a test moves time instead of waiting for it.
 * The backoff between attempts (node:timers/promises, which the fake clock does not reach) stays
 * real, at most 1 ms here.
 */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the fake clock on in steps of `stepMs` until `call` settles, letting each real backoff end in between. */
async function settled(call: Promise<unknown>, stepMs: number): Promise<unknown> {
  let done = false;
  const outcome = call.catch((error: unknown) => error);
  void outcome.finally(() => (done = true));
  while (!done) {
    await vi.advanceTimersByTimeAsync(stepMs);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return outcome;
}

/** An adapter whose lookup answers with the scripted outcomes in turn, counting calls. */
function scripted(outcomes: Array<Error | 'hang' | LookupResult[]>, overrides: Partial<Adapter> = {}) {
  let calls = 0;
  const adapter: Adapter = {
    ...stubAdapter(),
    lookup: async () => {
      const outcome = outcomes[Math.min(calls++, outcomes.length - 1)]!;
      if (outcome === 'hang') return new Promise<never>(() => undefined);
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    ...overrides,
  };
  return { adapter: resilientAdapter(adapter, policy), calls: () => calls };
}

describe('backend calls through the resilient adapter', () => {
  it('retries a retryable failure and returns the answer that follows', async () => {
    const backend = scripted([new BackendError('throttled', true), []]);
    await expect(backend.adapter.lookup(['x'])).resolves.toEqual([]);
    expect(backend.calls()).toBe(2);
  });

  it('gives up after the configured attempts with the last error', async () => {
    const backend = scripted([new BackendError('down', true)]);
    await expect(backend.adapter.lookup(['x'])).rejects.toThrow('down');
    expect(backend.calls()).toBe(3);
  });

  it('does not retry a failure the adapter marks final', async () => {
    const backend = scripted([new BackendError('bad credentials', false), []]);
    await expect(backend.adapter.lookup(['x'])).rejects.toThrow('bad credentials');
    expect(backend.calls()).toBe(1);
  });

  it('turns a backend that never answers into a retryable BackendError after each deadline', async () => {
    const backend = scripted(['hang']);
    const error = await settled(backend.adapter.lookup(['x']), 100);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).message).toMatch(/did not answer within 100 ms/);
    expect(backend.calls()).toBe(3);
  });

  it("runs an in-process store's reads without a deadline, and keeps the deadline on its orders", async () => {
    const slow = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 150));
    const adapter = resilientAdapter(
      { ...stubAdapter(), localReads: true, lookup: () => slow([]), getOrder: () => slow(null) },
      { ...policy, attempts: 1 },
    );
    // A local read that outlasts the 100 ms deadline is not cut off (it could only be a synchronous computation)…
    const read = adapter.lookup(['x']);
    const order = adapter.getOrder('o1').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(150);
    await expect(read).resolves.toEqual([]);
    // …while an order read, which may wait on the state store, still is, at its deadline.
    expect(await order).toMatchObject({ message: 'backend getOrder did not answer within 100 ms' });
  });

  it('aborts the signal it gave the adapter when the deadline passes', async () => {
    let seen: AbortSignal | undefined;
    const adapter = resilientAdapter(
      { ...stubAdapter(), getOrder: (_id, signal) => ((seen = signal), new Promise<never>(() => undefined)) },
      { ...policy, attempts: 1 },
    );
    const answer = adapter.getOrder('o1').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(99);
    expect(seen?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toBeInstanceOf(BackendError);
    expect(seen?.aborted).toBe(true);
  });

  it("aborts the adapter's signal with the caller's reason when the caller gives up", async () => {
    let seen: AbortSignal | undefined;
    const adapter = resilientAdapter(
      { ...stubAdapter(), getOrder: (_id, signal) => ((seen = signal), new Promise<never>(() => undefined)) },
      { ...policy, timeoutMs: 10_000 },
    );
    const caller = new AbortController();
    const answer = adapter.getOrder('o1', caller.signal).catch((e: unknown) => e);
    await new Promise((r) => setImmediate(r));
    caller.abort(new Error('client went away'));
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toEqual(new Error('client went away'));
    void answer;
  });

  it('places an order once, even when the attempt fails in a retryable way', async () => {
    let calls = 0;
    const adapter = resilientAdapter(
      {
        ...stubAdapter(),
        placeOrder: async () => {
          calls++;
          throw new BackendError('gateway timeout', true);
        },
      },
      policy,
    );
    await expect(adapter.placeOrder({} as never)).rejects.toThrow('gateway timeout');
    expect(calls).toBe(1);
  });
});

describe('backend credentials in adapter errors', () => {
  const SECRET = 'cs_live_4f9a8b7c6d5e';

  it('are scrubbed from the text of a BackendError', async () => {
    const adapter = resilientAdapter(
      { ...stubAdapter(), getOrder: async () => Promise.reject(new BackendError(`401 for consumer_secret=${SECRET}`, false)) },
      policy,
      undefined,
      [SECRET],
    );
    const error = (await adapter.getOrder('o1').catch((e: unknown) => e)) as BackendError;
    expect(error.message).toBe('401 for consumer_secret=[redacted]');
    expect(error.retryable).toBe(false);
  });

  it('never travel on as an unnamed error (an HTTP client error with its request config)', async () => {
    const clientError = Object.assign(new Error(`connect failed for https://ck:${SECRET}@shop.example`), {
      code: 'ECONNRESET',
      config: { auth: { username: 'ck', password: SECRET }, headers: { authorization: `Basic ${SECRET}` } },
    });
    const adapter = resilientAdapter({ ...stubAdapter(), getOrder: async () => Promise.reject(clientError) }, policy, undefined, [SECRET]);
    const error = (await adapter.getOrder('o1').catch((e: unknown) => e)) as BackendError & { cause: unknown };
    expect(error).toBeInstanceOf(BackendError);
    expect(error.cause).toEqual({ name: 'Error', code: 'ECONNRESET', message: 'connect failed for https://ck:[redacted]@shop.example' });
    expect(JSON.stringify({ message: error.message, cause: error.cause })).not.toContain(SECRET);
  });
});
