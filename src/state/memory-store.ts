/**
 * The default state store, for one process: values are kept as text (JSON, copied in and out,
 * as Redis would), keys expire on the injected clock, and every method finishes its work before
 * its first await, so each is atomic within the process. Expired keys nobody reads again are
 * swept in slices (at most `sweepBatch` keys a tick), so a store of a million sessions never
 * stops the event loop for a whole scan.
 */
import { MemoryQueue } from './memory-queue.js';
import { StoreUnavailableError, type DurableQueue, type StateStore, type Versioned } from './store.js';
import { checkText, checkVersion, decodeJson, durationMillis, encodeJson } from './values.js';

export interface MemoryStoreOptions {
  /** Clock for TTLs and queue times (tests move it by hand). */
  now?: () => number;
  /** How often a slice of the keys is checked for expiry (read keys are dropped on the spot); 1 s by default. */
  sweepIntervalMs?: number;
  /** Keys checked per slice; 10,000 by default (about a millisecond). */
  sweepBatch?: number;
}

interface Entry {
  /** The value's JSON text, or the text written by setText. */
  text: string;
  version: number;
  expiresAt: number;
}

export class MemoryStore implements StateStore {
  private readonly entries = new Map<string, Entry>();
  private readonly queues = new Map<string, MemoryQueue<unknown>>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  /** Where the sweep stopped, and how many keys its pass has left (from the size when it began: a pass ends however fast keys arrive). */
  private pass: { cursor: Iterator<[string, Entry]>; left: number } | undefined;
  private closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    const batch = options.sweepBatch ?? 10_000;
    // unref: a forgotten store never keeps the process alive.
    this.sweeper = setInterval(() => this.sweepSlice(batch), options.sweepIntervalMs ?? 1_000).unref();
  }

  async get<T>(key: string): Promise<Versioned<T> | null> {
    this.checkOpen();
    const entry = this.live(key);
    return entry ? { value: decodeJson<T>(entry.text), version: entry.version } : null;
  }

  async getText(key: string): Promise<Versioned<string> | null> {
    this.checkOpen();
    const entry = this.live(key);
    return entry ? { value: entry.text, version: entry.version } : null;
  }

  async set<T>(key: string, value: T, ttlMs: number): Promise<number> {
    this.checkOpen();
    return this.write(key, encodeJson(value), durationMillis(ttlMs), this.live(key)?.version ?? 0);
  }

  async setText(key: string, text: string, ttlMs: number): Promise<number> {
    this.checkOpen();
    return this.write(key, checkText(text), durationMillis(ttlMs), this.live(key)?.version ?? 0);
  }

  async setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean> {
    this.checkOpen();
    const ttl = durationMillis(ttlMs);
    // A key already held (a repeated idempotency key, a taken id) is refused without copying the value.
    if (this.live(key)) return false;
    this.write(key, encodeJson(value), ttl, 0);
    return true;
  }

  async compareAndSet<T>(key: string, expectedVersion: number, value: T, ttlMs: number): Promise<number | null> {
    this.checkOpen();
    checkVersion(expectedVersion);
    const json = encodeJson(value);
    const ttl = durationMillis(ttlMs);
    const current = this.live(key)?.version ?? 0;
    return current === expectedVersion ? this.write(key, json, ttl, current) : null;
  }

  async delete(key: string): Promise<void> {
    this.checkOpen();
    this.entries.delete(key);
  }

  queue<T>(name: string): DurableQueue<T> {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new MemoryQueue<unknown>(this.now, () => this.checkOpen());
      this.queues.set(name, queue);
    }
    return queue as MemoryQueue<T>;
  }

  async ping(): Promise<void> {
    this.checkOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
  }

  /** Drops every expired key at once; returns how many were dropped. */
  sweep(): number {
    this.pass = undefined;
    return this.sweepSlice(Infinity);
  }

  /** Checks the next `max` keys of the current pass (a new pass starts where the last one ended); returns how many were dropped. */
  private sweepSlice(max: number): number {
    const now = this.now();
    let dropped = 0;
    for (let checked = 0; checked < max; checked++) {
      this.pass ??= { cursor: this.entries.entries(), left: this.entries.size };
      const next = this.pass.left-- > 0 ? this.pass.cursor.next() : undefined;
      if (!next || next.done) {
        this.pass = undefined;
        break;
      }
      const [key, entry] = next.value;
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        dropped += 1;
      }
    }
    return dropped;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private write(key: string, text: string, ttl: number, previousVersion: number): number {
    const version = previousVersion + 1;
    this.entries.set(key, { text, version, expiresAt: this.now() + ttl });
    return version;
  }

  private checkOpen(): void {
    if (this.closed) throw new StoreUnavailableError('the memory store is closed');
  }
}
