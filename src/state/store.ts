/**
 * The one interface behind which every piece of state that outlives a request lives:
 * carts, checkout sessions, idempotency records, the webhook outbox.
 *
 * Values are JSON-serializable and are copied on the way in and out (no shared references),
 * so the memory store behaves like Redis; a value already in text form (an answer kept for its
 * replays) is stored as that text, not escaped again inside a JSON string. Every key carries a TTL (a positive number of
 * milliseconds); queues live until their jobs are acked or dead-lettered.
 * Failures to reach the backing service (or a closed store) throw `StoreUnavailableError`;
 * callers fail closed (503).
 */
import type { Cluster, Redis } from 'ioredis';

export interface Versioned<T> {
  value: T;
  /** Starts at 1 on creation and grows by one on every write. */
  version: number;
}

/** A Redis connection and a key prefix other parts may keep their own keys under. */
export interface SharedConnection {
  client: Redis | Cluster;
  keyPrefix: string;
}

export interface StateStore {
  get<T>(key: string): Promise<Versioned<T> | null>;
  /**
   * The value's stored text, as `setText` wrote it (a JSON value's JSON text): a reader that
   * wrote text reads it back unparsed.
   */
  getText(key: string): Promise<Versioned<string> | null>;
  /** Unconditional write; returns the new version. */
  set<T>(key: string, value: T, ttlMs: number): Promise<number>;
  /** `set` of a value that is text already, stored as it is; read it with `getText`. */
  setText(key: string, text: string, ttlMs: number): Promise<number>;
  /** Writes only when the key is absent; true when written. */
  setIfAbsent<T>(key: string, value: T, ttlMs: number): Promise<boolean>;
  /**
   * Writes only when the current version equals `expectedVersion` (0: the key must be absent).
   * Returns the new version, or null on conflict. Atomic across replicas.
   */
  compareAndSet<T>(key: string, expectedVersion: number, value: T, ttlMs: number): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** A durable queue; every key of one queue shares one Redis Cluster slot. */
  queue<T>(name: string): DurableQueue<T>;
  /**
   * The Redis behind the store and the store's key prefix, for parts that keep their own keys in
   * the same Redis so every replica shares them (the rate limiter); absent for an in-process store.
   */
  readonly connection?: SharedConnection;
  /** Throws StoreUnavailableError when the backing service does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface Job<T> {
  id: string;
  group: string;
  payload: T;
  /** Deliveries that failed so far (0 on first claim): retries, plus leases that expired unacked. */
  attempts: number;
  /** Fencing token of this claim: ack/retry/deadLetter with a stale token are no-ops. */
  token: string;
}

export interface DeadJob<T> {
  id: string;
  group: string;
  payload: T;
  /** Failed deliveries, counting the one that gave up. */
  attempts: number;
  reason: string;
  diedAt: number;
}

/**
 * At-least-once queue with delayed retry and a dead-letter list.
 * Jobs of one `group` are handed out one at a time in enqueue order (a group's head
 * blocks the rest until acked or dead-lettered); groups are independent.
 * A claim is a lease: if not acked, retried or dead-lettered within `leaseMs`, the job
 * becomes claimable again (by any replica).
 */
export interface DurableQueue<T> {
  /**
   * Idempotent by `id`: enqueueing an id that is queued or dead does nothing. `group` defaults
   * to the id (a job independent of all others); `availableAt` (epoch ms) defaults to now.
   */
  enqueue(job: { id: string; group?: string; payload: T; availableAt?: number }): Promise<void>;
  /** Up to `max` due group heads, leased for `leaseMs`. */
  claim(max: number, leaseMs: number): Promise<Array<Job<T>>>;
  /**
   * Done: removes the job and releases the group's next job.
   * This and the next two return false (and change nothing) when `job.token` is stale:
   * the lease was lost to another claim, or the job was already settled.
   */
  ack(job: Job<T>): Promise<boolean>;
  /** Failed for now: attempts + 1, claimable again at `availableAt`; still blocks its group. */
  retry(job: Job<T>, availableAt: number): Promise<boolean>;
  /** Given up: moves the job to the dead-letter list and releases the group's next job. */
  deadLetter(job: Job<T>, reason: string): Promise<boolean>;
  /** Dead jobs, oldest death first. */
  listDead(): Promise<Array<DeadJob<T>>>;
  /** Moves a dead job to the end of its group's queue, due now, attempts reset; false when unknown. */
  replay(id: string): Promise<boolean>;
  /** Forgets a dead job for good (an operator decided it is not to be delivered); false when unknown. */
  discard(id: string): Promise<boolean>;
  /**
   * When the earliest head of a group is due (a leased head: when its lease ends). In the past, the
   * job that waited longest for a delivery has waited since then; undefined when no job is queued.
   */
  nextDueAt(): Promise<number | undefined>;
  /** `queued` counts every job not dead (waiting, leased or waiting for a retry). */
  depth(): Promise<{ queued: number; dead: number }>;
}

export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
