/** The gateway's state store as an adapter sees it. */

/** A stored value and its version: starts at 1 and grows by one on every write. */
interface Versioned<T> {
  value: T;
  version: number;
}

/**
 * The gateway's state store as an adapter sees it (what every replica must see: orders of the demo
 * store, handoff records). The gateway passes its own store in; keys are the adapter's to namespace.
 */
export interface AdapterStore {
  get<T>(key: string): Promise<Versioned<T> | null>;
  /** Unconditional write; returns the new version. */
  set<T>(key: string, value: T, ttlMs: number): Promise<number>;
  /** Writes only when the key is absent; true when written. */
  setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean>;
  /** Writes only when the version is `expectedVersion` (0: absent); the new version, or null on conflict. */
  compareAndSet<T>(key: string, expectedVersion: number, value: T, ttlMs: number): Promise<number | null>;
  delete(key: string): Promise<void>;
}
