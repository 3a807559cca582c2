/**
 * Carts in the state store under `cart:{tenant}:{id}`, each with a TTL ending when the cart does.
 * Changes are compare-and-set on the record's version and run again on the fresh record after a
 * conflict, so concurrent updates of one cart apply one after the other and none is lost.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError } from '../../protocol/errors.js';
import type { StateStore } from '../../state/store.js';
import type { ActiveCart, CartRecord } from './cart-record.js';

const MAX_ATTEMPTS = 50;
const MAX_BACKOFF_MS = 50;

export interface CartChange<T> {
  result: T;
  /** The record to write; absent = nothing changes. */
  write?: CartRecord;
}

export class CartRepository {
  constructor(
    private readonly store: StateStore,
    private readonly tenantId: string,
    private readonly now: () => number,
  ) {}

  /** False when the id is taken (never, with random ids; checked all the same). */
  insert(cart: ActiveCart): Promise<boolean> {
    return this.store.setIfAbsent(this.key(cart.id), cart, this.ttl(cart));
  }

  async find(id: string): Promise<CartRecord | null> {
    return (await this.store.get<CartRecord>(this.key(id)))?.value ?? null;
  }

  /**
   * Runs `decide` on the current record (null when there is none) and writes what it returns,
   * provided nobody wrote in between; otherwise decides again on what is there now.
   */
  async change<T>(id: string, decide: (current: CartRecord | null) => Promise<CartChange<T>>): Promise<T> {
    const key = this.key(id);
    for (let attempt = 1; ; attempt++) {
      const current = await this.store.get<CartRecord>(key);
      const { result, write } = await decide(current?.value ?? null);
      if (!write) return result;
      if ((await this.store.compareAndSet(key, current?.version ?? 0, write, this.ttl(write))) !== null) return result;
      if (attempt === MAX_ATTEMPTS) {
        throw new ProtocolError(409, 'cart_update_conflict', 'the cart is being changed by other requests; retry shortly', { retryAfterSeconds: 1 });
      }
      // Jittered, so writers that collided do not collide again in lockstep.
      await sleep(Math.random() * Math.min(MAX_BACKOFF_MS, 2 ** attempt));
    }
  }

  private key(id: string): string {
    return `cart:${this.tenantId}:${id}`;
  }

  /** The record lives as long as the cart (at least 1 ms: a store TTL must be positive). */
  private ttl(cart: CartRecord): number {
    return Math.max(1, cart.expiresAt - this.now());
  }
}
