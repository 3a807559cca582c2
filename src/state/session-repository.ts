/**
 * Sessions (carts, checkout sessions) in the state store under `{kind}:{tenant}:{id}`, each with a
 * TTL ending when the session does. Changes are compare-and-set on the record's version and run
 * again on the fresh record after a conflict, so concurrent changes of one session apply one after
 * the other and none is lost.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError } from '../protocol/errors.js';
import type { StateStore } from './store.js';

const MAX_ATTEMPTS = 50;
const MAX_BACKOFF_MS = 50;

/** What every stored session has: an id and the epoch ms it ends at. */
export interface SessionRecord {
  id: string;
  expiresAt: number;
}

export interface SessionChange<T, R> {
  result: T;
  /** The record to write; absent = nothing changes. */
  write?: R;
}

export interface SessionRepositoryOptions {
  store: StateStore;
  /** Key namespace: `cart`, `checkout`. */
  kind: string;
  tenantId: string;
  now: () => number;
  /** Transport error code when conflicts outlast every retry, e.g. `cart_update_conflict`. */
  conflictCode: string;
}

export class SessionRepository<R extends SessionRecord> {
  constructor(private readonly options: SessionRepositoryOptions) {}

  /** False when the id is taken (never, with random ids; checked all the same). */
  insert(record: R): Promise<boolean> {
    return this.options.store.setIfAbsent(this.key(record.id), record, this.ttl(record));
  }

  /** Removes a record nobody else can know of yet (a session that lost a race before anyone saw its id). */
  delete(id: string): Promise<void> {
    return this.options.store.delete(this.key(id));
  }

  async find(id: string): Promise<R | null> {
    return (await this.options.store.get<R>(this.key(id)))?.value ?? null;
  }

  /**
   * Runs `decide` on the current record (null when there is none) and writes what it returns,
   * provided nobody wrote in between; otherwise decides again on what is there now.
   */
  async change<T>(id: string, decide: (current: R | null) => Promise<SessionChange<T, R>>): Promise<T> {
    const key = this.key(id);
    for (let attempt = 1; ; attempt++) {
      const current = await this.options.store.get<R>(key);
      const { result, write } = await decide(current?.value ?? null);
      if (!write) return result;
      if ((await this.options.store.compareAndSet(key, current?.version ?? 0, write, this.ttl(write))) !== null) return result;
      if (attempt === MAX_ATTEMPTS) {
        throw new ProtocolError(409, this.options.conflictCode, `the ${this.options.kind} is being changed by other requests; retry shortly`, { retryAfterSeconds: 1 });
      }
      // Jittered, so writers that collided do not collide again in lockstep.
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt));
    }
  }

  private key(id: string): string {
    return `${this.options.kind}:${this.options.tenantId}:${id}`;
  }

  /** The record lives as long as the session (at least 1 ms: a store TTL must be positive). */
  private ttl(record: R): number {
    return Math.max(1, record.expiresAt - this.options.now());
  }
}
