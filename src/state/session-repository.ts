/**
 * Sessions (carts, checkout sessions) in the state store under `{kind}:{tenant}:{id}`, each with a
 * TTL ending when the session does. Changes are compare-and-set on the record's version and run
 * again on the fresh record after a conflict, so concurrent changes of one session apply one after
 * the other and none is lost.
 *
 * A change that needs the store's price (`changePriced`) prices once, then writes: after a
 * conflict it decides again on the fresh record, and asks the store again only when what it
 * prices (the plan's `inputs`) differs from what was priced, never once per retry.
 *
 * A change may start from a record this process wrote (`held`): it is decided on as written, with
 * the version the write made, so a request changing again what it just wrote does not read and
 * parse it back; when anyone wrote since, the compare-and-set fails and it decides on a fresh read.
 */
import { setTimeout as sleep } from 'node:timers/promises';
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

/** A change that needs a backend answer first: `price` runs once per distinct `inputs`, `apply` decides without I/O. */
interface PricedStep<T, R, P> {
  /** Identifies everything `price` reads (a fingerprint of the quote request and the handle). */
  inputs: string;
  price: () => Promise<P>;
  apply: (priced: P) => SessionChange<T, R>;
}

export type ChangePlan<T, R, P> = SessionChange<T, R> | PricedStep<T, R, P>;

export interface SessionRepositoryOptions {
  store: StateStore;
  /** Key namespace: `cart`, `checkout`. */
  kind: string;
  tenantId: string;
  now: () => number;
}

/**
 * Conflicting writes outlasted every retry: the session is being changed by other requests.
 * The transports answer it 409 `{kind}_update_conflict` with Retry-After (transports/error-mapping.ts).
 */
export class SessionConflictError extends Error {
  constructor(readonly kind: string) {
    super(`the ${kind} is being changed by other requests; retry shortly`);
    this.name = 'SessionConflictError';
  }
}

/** The version each record object was written at, and where (one object, one key, one store). */
const written = new WeakMap<object, { store: StateStore; key: string; version: number }>();

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
   * provided nobody wrote in between; otherwise decides again on what is there now. `held`: the
   * record as this process wrote it (see the top of the file), decided on first without a read; a
   * decision on it that writes nothing is made again on a read (only a write proves it current).
   */
  async change<T>(id: string, decide: (current: R | null) => Promise<SessionChange<T, R>>, held?: R): Promise<T> {
    const key = this.key(id);
    const was = held && written.get(held);
    let known = was && was.store === this.options.store && was.key === key ? { value: held, version: was.version } : undefined;
    for (let attempt = 1; ; attempt++) {
      const fromHeld = known !== undefined;
      const current = known ?? (await this.options.store.get<R>(key));
      known = undefined;
      const { result, write } = await decide(current?.value ?? null);
      if (!write) {
        if (fromHeld) continue;
        return result;
      }
      const version = await this.options.store.compareAndSet(key, current?.version ?? 0, write, this.ttl(write));
      if (version !== null) {
        written.set(write, { store: this.options.store, key, version });
        return result;
      }
      if (attempt === MAX_ATTEMPTS) throw new SessionConflictError(this.options.kind);
      // Jittered, so writers that collided do not collide again in lockstep.
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt));
    }
  }

  /**
   * As `change`, for a decision that needs the store's price of the record (see the top of the
   * file): `plan` says what to price (or decides at once), the price is reused across conflicts
   * while the inputs stay the same.
   */
  async changePriced<T, P>(id: string, plan: (current: R | null) => Promise<ChangePlan<T, R, P>>): Promise<T> {
    let last: { inputs: string; priced: P } | undefined;
    return this.change(id, async (current) => {
      const step = await plan(current);
      if (!('price' in step)) return step;
      if (last?.inputs !== step.inputs) last = { inputs: step.inputs, priced: await step.price() };
      return step.apply(last.priced);
    });
  }

  private key(id: string): string {
    return `${this.options.kind}:${this.options.tenantId}:${id}`;
  }

  /** The record lives as long as the session (at least 1 ms: a store TTL must be positive). */
  private ttl(record: R): number {
    return Math.max(1, record.expiresAt - this.options.now());
  }
}
