/**
 * TEMPORARY: a minimal Map-based StateStore for the security tests, because src/state/memory-store.ts
 * is being written on another branch. Replace with MemoryStore once it lands. No TTLs, no queues.
 */
import type { DurableQueue, StateStore, Versioned } from '../../../src/state/store.js';

export class MapStore implements StateStore {
  private readonly values = new Map<string, Versioned<unknown>>();

  async get<T>(key: string): Promise<Versioned<T> | null> {
    const entry = this.values.get(key);
    return entry ? (structuredClone(entry) as Versioned<T>) : null;
  }

  async set<T>(key: string, value: T): Promise<number> {
    const version = (this.values.get(key)?.version ?? 0) + 1;
    this.values.set(key, { value: structuredClone(value), version });
    return version;
  }

  async setIfAbsent<T>(key: string, value: T): Promise<boolean> {
    if (this.values.has(key)) return false;
    await this.set(key, value);
    return true;
  }

  async compareAndSet<T>(key: string, expectedVersion: number, value: T): Promise<number | null> {
    if ((this.values.get(key)?.version ?? 0) !== expectedVersion) return null;
    return this.set(key, value);
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  queue<T>(): DurableQueue<T> {
    throw new Error('MapStore has no queues');
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
