/**
 * Price once, then write (adapter contract v2): a change that needs the store's price asks the
 * store before the compare-and-set, and after a conflict asks again only when what it prices
 * changed, never once per retry.
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { pino } from 'pino';
import { SessionConflictError, SessionRepository } from '../../src/state/session-repository.js';
import { MemoryStore } from '../../src/state/memory-store.js';
import { toProtocolError } from '../../src/transports/error-mapping.js';

interface Session {
  id: string;
  expiresAt: number;
  lines: string[];
  seen?: number;
}

const NOW = Date.parse('2026-03-10T12:00:00Z');

async function setUp() {
  const store = new MemoryStore({ now: () => NOW });
  const repository = new SessionRepository<Session>({ store, kind: 'test', tenantId: 't', now: () => NOW });
  await repository.insert({ id: 's1', expiresAt: NOW + 60_000, lines: ['roses'] });
  return { store, repository };
}

describe('SessionRepository.changePriced', () => {
  it('a conflict with a write that left the priced inputs alone reuses the price', async () => {
    const { store, repository } = await setUp();
    let quotes = 0;
    let interfered = false;
    const result = await repository.changePriced<number, number>('s1', async (current) => ({
      inputs: JSON.stringify(current!.lines),
      price: async () => {
        quotes += 1;
        if (!interfered) {
          interfered = true; // another request writes while the store is asked
          const other = await store.get<Session>('test:t:s1');
          await store.compareAndSet('test:t:s1', other!.version, { ...other!.value, seen: 1 }, 60_000);
        }
        return 4200;
      },
      apply: (price) => ({ result: price, write: { ...current!, seen: price } }),
    }));
    expect([result, quotes]).toEqual([4200, 1]);
    expect((await repository.find('s1'))!.seen).toBe(4200);
  });

  it('a conflict with a write that changed the priced inputs prices again', async () => {
    const { store, repository } = await setUp();
    const priced: string[] = [];
    await repository.changePriced<string, string>('s1', async (current) => ({
      inputs: JSON.stringify(current!.lines),
      price: async () => {
        priced.push(current!.lines.join());
        if (priced.length === 1) {
          const other = await store.get<Session>('test:t:s1');
          await store.compareAndSet('test:t:s1', other!.version, { ...other!.value, lines: ['roses', 'pot'] }, 60_000);
        }
        return current!.lines.join();
      },
      apply: (price) => ({ result: price, write: current! }),
    }));
    expect(priced).toEqual(['roses', 'roses,pot']);
  });
});

describe('SessionRepository.change under endless conflicts', () => {
  it('gives up with a state-level conflict the transports answer 409 {kind}_update_conflict with Retry-After', async () => {
    const store = new MemoryStore({ now: () => NOW });
    // No jitter: each retry's backoff is 0 ms, so the 50 attempts take no time.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0);
    onTestFinished(() => random.mockRestore());
    // Every compare-and-set loses, as if another request always wrote in between.
    const contested = Object.assign(Object.create(store) as MemoryStore, { compareAndSet: async () => null });
    const repository = new SessionRepository<Session>({ store: contested, kind: 'cart', tenantId: 't', now: () => NOW });
    await repository.insert({ id: 's1', expiresAt: NOW + 60_000, lines: ['roses'] });
    const failure = await repository
      .change('s1', async (current) => ({ result: 1, write: { ...current!, seen: 1 } }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SessionConflictError);
    const answered = toProtocolError(failure, pino({ level: 'silent' }));
    expect([answered.status, answered.code, answered.extra.retryAfterSeconds]).toEqual([409, 'cart_update_conflict', 1]);
  });
});

describe('SessionRepository.change from a record this process wrote', () => {
  async function written() {
    const { store, repository } = await setUp();
    const mine = await repository.change('s1', async (current) => {
      const write = { ...current!, seen: 1 };
      return { result: write, write };
    });
    return { store, repository, mine, reads: vi.spyOn(store, 'get') };
  }

  it('changes it again without reading it back', async () => {
    const { repository, mine, reads } = await written();
    const seen = await repository.change('s1', async (current) => ({ result: current, write: { ...current!, seen: 2 } }), mine);
    expect(seen).toBe(mine);
    expect(reads).not.toHaveBeenCalled();
    expect((await repository.find('s1'))!.seen).toBe(2);
  });

  it('decides on the fresh record when someone wrote since', async () => {
    const { store, repository, mine } = await written();
    const other = await store.get<Session>('test:t:s1');
    await store.compareAndSet('test:t:s1', other!.version, { ...other!.value, lines: ['pot'] }, 60_000);
    const decided: string[][] = [];
    await repository.change(
      's1',
      async (current) => {
        decided.push(current!.lines);
        return { result: undefined, write: { ...current!, seen: 3 } };
      },
      mine,
    );
    expect(decided).toEqual([['roses'], ['pot']]);
    expect(await repository.find('s1')).toMatchObject({ lines: ['pot'], seen: 3 });
  });

  it('does not answer from the held record when the decision writes nothing: it decides again on a read', async () => {
    const { store, repository, mine } = await written();
    const other = await store.get<Session>('test:t:s1');
    await store.compareAndSet('test:t:s1', other!.version, { ...other!.value, lines: ['pot'] }, 60_000);
    const seen = await repository.change('s1', async (current) => ({ result: current!.lines }), mine);
    expect(seen).toEqual(['pot']);
  });
});
