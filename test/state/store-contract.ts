/**
 * What every StateStore must do, run against each implementation. Tests open stores through a
 * factory; stores opened for one test share a namespace, as replicas sharing one Redis would.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError, type Job, type StateStore } from '../../src/state/store.js';

interface StoreNamespace {
  /** A store on this namespace whose queues read `now`; each call is another replica. */
  open(now: () => number): Promise<StateStore>;
  /** Removes what the test left behind, once its stores are closed. */
  dispose?(): Promise<void>;
}

/** Called once per test for a fresh namespace. */
export type StoreFactory = () => StoreNamespace;

export interface ClockControl {
  /**
   * Lets `ms` of key-TTL time pass: the memory store expires keys on its injected clock, Redis
   * on its own, so there this waits for real (tests keep such TTLs short and few).
   */
  elapseKeyTime(ms: number, clock: ManualClock): Promise<void>;
}

export class ManualClock {
  private time = Date.now();
  readonly now = () => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

/** The memory store expires keys on the injected clock. */
export const injectedKeyTime: ClockControl = {
  elapseKeyTime: async (ms, clock) => clock.advance(ms),
};

/** Redis expires keys on its own clock. */
export const serverKeyTime: ClockControl = {
  async elapseKeyTime(ms, clock) {
    clock.advance(ms);
    await sleep(ms + 50);
  },
};

const LONG_TTL = 60_000;
const SHORT_TTL = 1_000;
const LEASE = 30_000;

export function storeContract(makeStore: StoreFactory, clockControl: ClockControl): void {
  let clock: ManualClock;
  let opened: StateStore[];
  /** A store on the test's namespace; call again for another replica. */
  let open: () => Promise<StateStore>;
  let store: StateStore;

  let namespace: StoreNamespace;

  beforeEach(async () => {
    clock = new ManualClock();
    opened = [];
    namespace = makeStore();
    open = async () => {
      const replica = await namespace.open(clock.now);
      opened.push(replica);
      return replica;
    };
    store = await open();
  });

  afterEach(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await namespace.dispose?.();
  });

  describe('records', () => {
    it('reads back what was written, with a version that starts at 1 and grows by one per write', async () => {
      expect(await store.get('cart')).toBeNull();
      expect(await store.set('cart', { lines: [] }, LONG_TTL)).toBe(1);
      expect(await store.set('cart', { lines: [{ sku: 'rose', quantity: 2 }] }, LONG_TTL)).toBe(2);
      expect(await store.get('cart')).toEqual({ value: { lines: [{ sku: 'rose', quantity: 2 }] }, version: 2 });
    });

    it('keeps JSON values exactly: empty arrays and objects, null, unicode, large safe integers', async () => {
      const value = { empty: [], nothing: {}, none: null, text: 'Grüße 🌷 "quoted" \\ /', big: Number.MAX_SAFE_INTEGER, neg: -0.5 };
      await store.set('json', value, LONG_TTL);
      expect((await store.get('json'))?.value).toEqual(value);
      await store.set('null', null, LONG_TTL);
      expect(await store.get('null')).toEqual({ value: null, version: 1 });
    });

    it('copies values in and out: mutating what was written or read changes nothing stored', async () => {
      const written = { lines: [{ quantity: 1 }] };
      await store.set('cart', written, LONG_TTL);
      written.lines[0]!.quantity = 99;
      const read = (await store.get<typeof written>('cart'))!.value;
      expect(read.lines[0]!.quantity).toBe(1);
      read.lines.push({ quantity: 5 });
      expect((await store.get<typeof written>('cart'))!.value).toEqual({ lines: [{ quantity: 1 }] });
    });

    it('refuses values that are not JSON and TTLs that are not positive, writing nothing', async () => {
      await expect(store.set('bad', undefined, LONG_TTL)).rejects.toThrow(TypeError);
      await expect(store.set('bad', 1, 0)).rejects.toThrow(RangeError);
      await expect(store.setIfAbsent('bad', 1, -5)).rejects.toThrow(RangeError);
      await expect(store.compareAndSet('bad', 0, 1, Number.NaN)).rejects.toThrow(RangeError);
      await expect(store.compareAndSet('bad', -1, 1, LONG_TTL)).rejects.toThrow(RangeError);
      expect(await store.get('bad')).toBeNull();
    });

    it('keeps a text written with setText exactly, read back unparsed with getText, versioned like any value', async () => {
      const text = '{"head":1}\n{"body":"\\"quoted\\" Grüße 🌷"}\nnot JSON at all \\ \r\n';
      expect(await store.getText('answer')).toBeNull();
      expect(await store.setIfAbsent('answer', { state: 'pending' }, LONG_TTL)).toBe(true);
      expect(await store.getText('answer')).toEqual({ value: '{"state":"pending"}', version: 1 });
      expect(await store.setText('answer', text, LONG_TTL)).toBe(2);
      expect(await store.getText('answer')).toEqual({ value: text, version: 2 });
      expect(await store.setText('answer', '', LONG_TTL)).toBe(3);
      expect(await store.getText('answer')).toEqual({ value: '', version: 3 });
      await expect(store.setText('answer', 'x', 0)).rejects.toThrow(RangeError);
      await expect(store.setText('answer', 42 as unknown as string, LONG_TTL)).rejects.toThrow(TypeError);
      expect(await store.getText('answer')).toEqual({ value: '', version: 3 });
    });

    it('setIfAbsent writes only the first time', async () => {
      expect(await store.setIfAbsent('reservation', 'first', LONG_TTL)).toBe(true);
      expect(await store.setIfAbsent('reservation', 'second', LONG_TTL)).toBe(false);
      expect(await store.get('reservation')).toEqual({ value: 'first', version: 1 });
    });

    it('setIfAbsent has exactly one winner among many concurrent callers on several replicas', async () => {
      const replicas = [store, await open(), await open()];
      const attempts = Array.from({ length: 60 }, (_, i) => ({ i, result: replicas[i % 3]!.setIfAbsent('race', { winner: i }, LONG_TTL) }));
      const won = [];
      for (const { i, result } of attempts) if (await result) won.push(i);
      expect(won).toHaveLength(1);
      expect((await store.get('race'))?.value).toEqual({ winner: won[0] });
    });

    it('compareAndSet writes only over the expected version (0: the key must be absent)', async () => {
      expect(await store.compareAndSet('order', 0, 'created', LONG_TTL)).toBe(1);
      expect(await store.compareAndSet('order', 0, 'again', LONG_TTL)).toBeNull();
      expect(await store.compareAndSet('order', 2, 'skipped ahead', LONG_TTL)).toBeNull();
      expect(await store.compareAndSet('order', 1, 'paid', LONG_TTL)).toBe(2);
      expect(await store.get('order')).toEqual({ value: 'paid', version: 2 });
    });

    it('compareAndSet loses no increment when replicas race (read, compare-and-set, retry on conflict)', async () => {
      const replicas = [store, await open(), await open()];
      const increment = async (replica: StateStore) => {
        for (;;) {
          const current = await replica.get<number>('counter');
          const written = await replica.compareAndSet('counter', current?.version ?? 0, (current?.value ?? 0) + 1, LONG_TTL);
          if (written !== null) return;
        }
      };
      await Promise.all(Array.from({ length: 30 }, (_, i) => increment(replicas[i % 3]!)));
      expect(await store.get('counter')).toEqual({ value: 30, version: 30 });
    });

    it('delete removes a record; the key starts over at version 1', async () => {
      await store.set('session', 'a', LONG_TTL);
      await store.set('session', 'b', LONG_TTL);
      await store.delete('session');
      await store.delete('never-written');
      expect(await store.get('session')).toBeNull();
      expect(await store.compareAndSet('session', 0, 'c', LONG_TTL)).toBe(1);
    });

    it('expires a record after its TTL; every write sets the TTL anew; an expired key counts as absent', async () => {
      await store.set('short', 'gone soon', SHORT_TTL);
      await store.set('long', 'stays', LONG_TTL);
      await store.set('extended', 'first', SHORT_TTL);
      expect(await store.compareAndSet('extended', 1, 'extended', LONG_TTL)).toBe(2);
      await store.setIfAbsent('reserved', 'first', SHORT_TTL);
      await store.setText('text', 'gone soon', SHORT_TTL);
      await clockControl.elapseKeyTime(SHORT_TTL, clock);
      expect(await store.get('short')).toBeNull();
      expect(await store.getText('text')).toBeNull();
      expect(await store.get('long')).toEqual({ value: 'stays', version: 1 });
      expect(await store.get('extended')).toEqual({ value: 'extended', version: 2 });
      expect(await store.setIfAbsent('reserved', 'second', LONG_TTL)).toBe(true);
      expect(await store.get('reserved')).toEqual({ value: 'second', version: 1 });
      expect(await store.compareAndSet('short', 0, 'new life', LONG_TTL)).toBe(1);
    });

    it('a closed store refuses every call with StoreUnavailableError', async () => {
      await store.close();
      await expect(store.get('k')).rejects.toThrow(StoreUnavailableError);
      await expect(store.set('k', 1, LONG_TTL)).rejects.toThrow(StoreUnavailableError);
      await expect(store.getText('k')).rejects.toThrow(StoreUnavailableError);
      await expect(store.setText('k', 'v', LONG_TTL)).rejects.toThrow(StoreUnavailableError);
      await expect(store.ping()).rejects.toThrow(StoreUnavailableError);
      await expect(store.queue('q').depth()).rejects.toThrow(StoreUnavailableError);
    });

    it('answers ping while healthy', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });

  describe('durable queue', () => {
    type Event = { order: string; seq: number };
    const ids = (jobs: Array<Job<unknown>>) => jobs.map((j) => j.id).sort();

    it('hands out an enqueued job with its payload, no attempts yet, and a token', async () => {
      const queue = store.queue<Event>('outbox');
      const payload = { order: 'o1', seq: 1 };
      await queue.enqueue({ id: 'e1', group: 'o1', payload });
      payload.seq = 99; // the queue kept a copy
      const [job, ...more] = await queue.claim(10, LEASE);
      expect(more).toEqual([]);
      expect(job).toMatchObject({ id: 'e1', group: 'o1', payload: { order: 'o1', seq: 1 }, attempts: 0 });
      expect(typeof job!.token).toBe('string');
      expect(await queue.depth()).toEqual({ queued: 1, dead: 0 });
    });

    it('hands out the jobs of one group one at a time, in enqueue order', async () => {
      const queue = store.queue<Event>('outbox');
      for (const seq of [1, 2, 3]) await queue.enqueue({ id: `e${seq}`, group: 'o1', payload: { order: 'o1', seq } });
      const delivered: number[] = [];
      for (;;) {
        const jobs = await queue.claim(10, LEASE);
        if (jobs.length === 0) break;
        expect(jobs).toHaveLength(1);
        delivered.push(jobs[0]!.payload.seq);
        expect(await queue.claim(10, LEASE)).toEqual([]); // the head blocks its group while leased
        expect(await queue.ack(jobs[0]!)).toBe(true);
      }
      expect(delivered).toEqual([1, 2, 3]);
      expect(await queue.depth()).toEqual({ queued: 0, dead: 0 });
    });

    it('keeps groups independent: a blocked group does not hold up the others', async () => {
      const queue = store.queue<string>('outbox');
      await queue.enqueue({ id: 'a1', group: 'a', payload: 'x' });
      await queue.enqueue({ id: 'a2', group: 'a', payload: 'x' });
      await queue.enqueue({ id: 'b1', group: 'b', payload: 'x' });
      const [first] = await queue.claim(1, LEASE);
      await queue.retry(first!, clock.now() + 60_000);
      await queue.enqueue({ id: 'c1', group: 'c', payload: 'x' });
      await queue.enqueue({ id: 'n1', payload: 'x' });
      await queue.enqueue({ id: 'n2', payload: 'x' }); // no group: each on its own
      const others = await queue.claim(10, LEASE);
      const blocked = first!.group === 'a' ? ['a1', 'a2'] : ['b1'];
      expect(ids(others)).toEqual(['a1', 'b1', 'c1', 'n1', 'n2'].filter((id) => !blocked.includes(id)));
    });

    it('claims at most `max` jobs', async () => {
      const queue = store.queue<number>('outbox');
      for (let i = 0; i < 5; i += 1) await queue.enqueue({ id: `j${i}`, group: `g${i}`, payload: i });
      expect(await queue.claim(2, LEASE)).toHaveLength(2);
      expect(await queue.claim(10, LEASE)).toHaveLength(3);
      expect(await queue.claim(10, LEASE)).toEqual([]);
    });

    it('every job goes to exactly one of several replicas claiming at once', async () => {
      const queues = [store, await open(), await open(), await open()].map((s) => s.queue<number>('outbox'));
      for (let i = 0; i < 40; i += 1) await queues[0]!.enqueue({ id: `j${i}`, group: `g${i % 20}`, payload: i });
      const claimed = (await Promise.all(queues.map((q) => q.claim(40, LEASE)))).flat();
      expect(claimed).toHaveLength(20); // one head per group
      expect(new Set(claimed.map((j) => j.id)).size).toBe(20);
      expect(new Set(claimed.map((j) => j.token)).size).toBe(20);
    });

    it('an expired lease makes the job claimable again by another replica, with one more attempt', async () => {
      const queueA = store.queue<string>('outbox');
      const queueB = (await open()).queue<string>('outbox');
      await queueA.enqueue({ id: 'e1', group: 'o1', payload: 'webhook' });
      await queueA.enqueue({ id: 'e2', group: 'o1', payload: 'webhook' });
      const [held] = await queueA.claim(1, LEASE);
      clock.advance(LEASE - 1);
      expect(await queueB.claim(10, LEASE)).toEqual([]);
      clock.advance(1);
      const [reclaimed] = await queueB.claim(10, LEASE);
      expect(reclaimed).toMatchObject({ id: 'e1', attempts: 1, payload: 'webhook' });
      expect(reclaimed!.token).not.toBe(held!.token);
    });

    it('fences a stale holder: its ack, retry and dead-letter change nothing', async () => {
      const queueA = store.queue<string>('outbox');
      const queueB = (await open()).queue<string>('outbox');
      await queueA.enqueue({ id: 'e1', group: 'o1', payload: 'p' });
      await queueA.enqueue({ id: 'e2', group: 'o1', payload: 'p' });
      const [stale] = await queueA.claim(1, LEASE);
      clock.advance(LEASE);
      const [current] = await queueB.claim(1, LEASE);
      expect(await queueA.ack(stale!)).toBe(false);
      expect(await queueA.retry(stale!, clock.now())).toBe(false);
      expect(await queueA.deadLetter(stale!, 'stale')).toBe(false);
      expect(await queueA.depth()).toEqual({ queued: 2, dead: 0 });
      expect(await queueA.claim(10, LEASE)).toEqual([]); // e1 still leased to B, e2 still blocked
      expect(await queueB.ack(current!)).toBe(true);
      expect(await queueB.ack(current!)).toBe(false); // settled already
      expect((await queueA.claim(10, LEASE)).map((j) => j.id)).toEqual(['e2']);
    });

    it('a retried job comes back at its availableAt with one more attempt, still blocking its group', async () => {
      const queue = store.queue<string>('outbox');
      await queue.enqueue({ id: 'e1', group: 'o1', payload: 'p' });
      await queue.enqueue({ id: 'e2', group: 'o1', payload: 'p' });
      const [job] = await queue.claim(1, LEASE);
      expect(await queue.retry(job!, clock.now() + 5_000)).toBe(true);
      expect(await queue.ack(job!)).toBe(false); // the retry ended that claim
      clock.advance(4_999);
      expect(await queue.claim(10, LEASE)).toEqual([]);
      clock.advance(1);
      const [again] = await queue.claim(10, LEASE);
      expect(again).toMatchObject({ id: 'e1', attempts: 1 });
      await queue.retry(again!, clock.now());
      expect(await queue.claim(10, LEASE)).toMatchObject([{ id: 'e1', attempts: 2 }]);
    });

    it('finds the few due jobs among many waiting for a later retry', async () => {
      const queue = store.queue<number>('outbox');
      for (let i = 0; i < 300; i += 1) await queue.enqueue({ id: `later${i}`, payload: i, availableAt: clock.now() + 3_600_000 });
      await queue.enqueue({ id: 'now', payload: -1 });
      expect((await queue.claim(5, LEASE)).map((j) => j.id)).toEqual(['now']);
      expect(await queue.depth()).toEqual({ queued: 301, dead: 0 });
    });

    it('holds a job enqueued for later until its availableAt', async () => {
      const queue = store.queue<string>('outbox');
      await queue.enqueue({ id: 'later', payload: 'p', availableAt: clock.now() + 10_000 });
      expect(await queue.claim(10, LEASE)).toEqual([]);
      clock.advance(10_000);
      expect((await queue.claim(10, LEASE)).map((j) => j.id)).toEqual(['later']);
    });

    it('dead-letters a job, releasing its group, and lists it with the reason', async () => {
      const queue = store.queue<Event>('outbox');
      await queue.enqueue({ id: 'e1', group: 'o1', payload: { order: 'o1', seq: 1 } });
      await queue.enqueue({ id: 'e2', group: 'o1', payload: { order: 'o1', seq: 2 } });
      const [job] = await queue.claim(1, LEASE);
      await queue.retry(job!, clock.now());
      const [again] = await queue.claim(1, LEASE);
      clock.advance(100);
      expect(await queue.deadLetter(again!, 'HTTP 410 from the platform')).toBe(true);
      expect(await queue.listDead()).toEqual([
        { id: 'e1', group: 'o1', payload: { order: 'o1', seq: 1 }, attempts: 2, reason: 'HTTP 410 from the platform', diedAt: clock.now() },
      ]);
      expect(await queue.depth()).toEqual({ queued: 1, dead: 1 });
      expect((await queue.claim(10, LEASE)).map((j) => j.id)).toEqual(['e2']);
    });

    it('replays a dead job to the end of its group with attempts reset', async () => {
      const queue = store.queue<string>('outbox');
      await queue.enqueue({ id: 'e1', group: 'o1', payload: 'first' });
      const [job] = await queue.claim(1, LEASE);
      await queue.deadLetter(job!, 'gave up');
      await queue.enqueue({ id: 'e2', group: 'o1', payload: 'second' });
      expect(await queue.replay('e1')).toBe(true);
      expect(await queue.replay('e1')).toBe(false); // no longer dead
      expect(await queue.replay('unknown')).toBe(false);
      expect(await queue.listDead()).toEqual([]);
      expect(await queue.depth()).toEqual({ queued: 2, dead: 0 });
      const [second] = await queue.claim(10, LEASE);
      expect(second).toMatchObject({ id: 'e2' });
      await queue.ack(second!);
      expect(await queue.claim(10, LEASE)).toMatchObject([{ id: 'e1', payload: 'first', attempts: 0 }]);
    });

    it('tells when the earliest group head is due: the wait of the job that waited longest', async () => {
      const queue = store.queue<string>('outbox');
      expect(await queue.nextDueAt()).toBeUndefined();
      const start = clock.now();
      await queue.enqueue({ id: 'a1', group: 'a', payload: 'a1', availableAt: start + 5000 });
      await queue.enqueue({ id: 'b1', group: 'b', payload: 'b1' });
      clock.advance(10);
      await queue.enqueue({ id: 'b2', group: 'b', payload: 'b2' });
      expect(await queue.nextDueAt()).toBe(start);
      const [b1] = await queue.claim(1, LEASE);
      await queue.ack(b1!);
      expect(await queue.nextDueAt()).toBe(start + 10); // b2, the next head of its group
      const [b2] = await queue.claim(1, LEASE);
      await queue.deadLetter(b2!, 'gave up');
      expect(await queue.nextDueAt()).toBe(start + 5000);
    });

    it('discards a dead job for good: gone from the dead letters, never delivered', async () => {
      const queue = store.queue<string>('outbox');
      await queue.enqueue({ id: 'e1', group: 'o1', payload: 'first' });
      const [job] = await queue.claim(1, LEASE);
      await queue.deadLetter(job!, 'gave up');
      expect(await queue.discard('unknown')).toBe(false);
      expect(await queue.discard('e1')).toBe(true);
      expect(await queue.discard('e1')).toBe(false);
      expect(await queue.replay('e1')).toBe(false);
      expect(await queue.listDead()).toEqual([]);
      expect(await queue.depth()).toEqual({ queued: 0, dead: 0 });
      expect(await queue.claim(10, LEASE)).toEqual([]);
    });

    it('lists dead jobs oldest death first', async () => {
      const queue = store.queue<string>('outbox');
      for (const id of ['x', 'y', 'z']) await queue.enqueue({ id, payload: id });
      const jobs = await queue.claim(3, LEASE);
      for (const id of ['y', 'x', 'z']) {
        clock.advance(10);
        await queue.deadLetter(
          jobs.find((j) => j.id === id)!,
          `reason ${id}`,
        );
      }
      expect((await queue.listDead()).map((d) => d.id)).toEqual(['y', 'x', 'z']);
    });

    it('ignores enqueueing an id that is queued or dead; an acked id may be enqueued again', async () => {
      const queue = store.queue<string>('outbox');
      await queue.enqueue({ id: 'e1', group: 'o1', payload: 'original' });
      await queue.enqueue({ id: 'e1', group: 'o1', payload: 'duplicate' });
      expect(await queue.depth()).toEqual({ queued: 1, dead: 0 });
      const [job] = await queue.claim(10, LEASE);
      expect(job!.payload).toBe('original');
      await queue.deadLetter(job!, 'gave up');
      await queue.enqueue({ id: 'e1', group: 'o1', payload: 'after death' });
      expect(await queue.depth()).toEqual({ queued: 0, dead: 1 });
      expect(await queue.claim(10, LEASE)).toEqual([]);

      await queue.enqueue({ id: 'e2', payload: 'once' });
      await queue.ack((await queue.claim(1, LEASE))[0]!);
      await queue.enqueue({ id: 'e2', payload: 'twice' });
      expect(await queue.claim(10, LEASE)).toMatchObject([{ id: 'e2', payload: 'twice' }]);
    });

    it('keeps queues of different names apart', async () => {
      await store.queue<string>('outbox').enqueue({ id: 'same-id', payload: 'outbox' });
      await store.queue<string>('emails').enqueue({ id: 'same-id', payload: 'emails' });
      expect(await store.queue('outbox').depth()).toEqual({ queued: 1, dead: 0 });
      expect(await store.queue<string>('emails').claim(10, LEASE)).toMatchObject([{ payload: 'emails' }]);
      expect(await store.queue<string>('outbox').claim(10, LEASE)).toMatchObject([{ payload: 'outbox' }]);
    });

    it('refuses a claim of no jobs or a lease that is not positive', async () => {
      const queue = store.queue<string>('outbox');
      await expect(queue.claim(0, LEASE)).rejects.toThrow(RangeError);
      await expect(queue.claim(1, 0)).rejects.toThrow(RangeError);
    });
  });
}

/** A key prefix no other test run shares. */
export const randomPrefix = () => `test:${randomUUID()}:`;
