/**
 * The durable queue of the memory store: the same rules as the Redis queue (one leased head per
 * group, fencing tokens, retries, dead letters), kept in maps. Every method does its work before
 * its first await, so each is atomic within the process.
 */
import type { DeadJob, DurableQueue, Job } from './store.js';
import { checkMax, checkTime, decodeJson, durationMillis, encodeJson } from './values.js';

interface QueuedJob {
  id: string;
  group: string;
  payload: string;
  attempts: number;
  /** When the job may be claimed: its availableAt, or its lease's end while claimed. */
  dueAt: number;
  /** The token of the latest claim, until the job is retried or settled. */
  token?: string;
}

interface DeadRecord {
  id: string;
  group: string;
  payload: string;
  attempts: number;
  reason: string;
  diedAt: number;
}

export class MemoryQueue<T> implements DurableQueue<T> {
  private readonly jobs = new Map<string, QueuedJob>();
  /** Job ids of each group in enqueue order; the first is the head. */
  private readonly groups = new Map<string, string[]>();
  /** In order of death (a Map keeps insertion order). */
  private readonly dead = new Map<string, DeadRecord>();
  private fence = 0;

  constructor(
    private readonly now: () => number,
    private readonly checkOpen: () => void,
  ) {}

  async enqueue(job: { id: string; group?: string; payload: T; availableAt?: number }): Promise<void> {
    this.checkOpen();
    const payload = encodeJson(job.payload);
    const dueAt = job.availableAt ?? this.now();
    checkTime(dueAt, 'availableAt');
    if (this.jobs.has(job.id) || this.dead.has(job.id)) return;
    this.push({ id: job.id, group: job.group ?? job.id, payload, attempts: 0, dueAt });
  }

  async claim(max: number, leaseMs: number): Promise<Array<Job<T>>> {
    this.checkOpen();
    checkMax(max);
    const lease = durationMillis(leaseMs, 'leaseMs');
    const now = this.now();
    // Polled every second by every replica's worker: one pass over the group heads, no copies of the groups.
    const due: QueuedJob[] = [];
    for (const ids of this.groups.values()) {
      const head = this.jobs.get(ids[0]!)!;
      if (head.dueAt <= now) due.push(head);
    }
    due.sort((a, b) => a.dueAt - b.dueAt);
    if (due.length > max) due.length = max;
    return due.map((job) => {
      if (job.token !== undefined) job.attempts += 1; // its previous lease ran out unsettled
      job.token = String(++this.fence);
      job.dueAt = now + lease;
      return { id: job.id, group: job.group, payload: decodeJson<T>(job.payload), attempts: job.attempts, token: job.token };
    });
  }

  async ack(job: Job<T>): Promise<boolean> {
    this.checkOpen();
    const current = this.holding(job);
    if (!current) return false;
    this.remove(current);
    return true;
  }

  async retry(job: Job<T>, availableAt: number): Promise<boolean> {
    this.checkOpen();
    checkTime(availableAt, 'availableAt');
    const current = this.holding(job);
    if (!current) return false;
    current.attempts += 1;
    current.dueAt = availableAt;
    delete current.token;
    return true;
  }

  async deadLetter(job: Job<T>, reason: string): Promise<boolean> {
    this.checkOpen();
    const current = this.holding(job);
    if (!current) return false;
    this.remove(current);
    const { id, group, payload, attempts } = current;
    this.dead.set(id, { id, group, payload, attempts: attempts + 1, reason, diedAt: this.now() });
    return true;
  }

  async listDead(): Promise<Array<DeadJob<T>>> {
    this.checkOpen();
    return [...this.dead.values()].map((record) => ({ ...record, payload: decodeJson<T>(record.payload) }));
  }

  async replay(id: string): Promise<boolean> {
    this.checkOpen();
    const record = this.dead.get(id);
    if (!record) return false;
    this.dead.delete(id);
    this.push({ id, group: record.group, payload: record.payload, attempts: 0, dueAt: this.now() });
    return true;
  }

  async nextDueAt(): Promise<number | undefined> {
    this.checkOpen();
    const heads = [...this.groups.values()].map((ids) => this.jobs.get(ids[0]!)!.dueAt);
    return heads.length ? Math.min(...heads) : undefined;
  }

  async discard(id: string): Promise<boolean> {
    this.checkOpen();
    return this.dead.delete(id);
  }

  async depth(): Promise<{ queued: number; dead: number }> {
    this.checkOpen();
    return { queued: this.jobs.size, dead: this.dead.size };
  }

  private push(job: QueuedJob): void {
    this.jobs.set(job.id, job);
    const ids = this.groups.get(job.group);
    if (ids) ids.push(job.id);
    else this.groups.set(job.group, [job.id]);
  }

  /** The stored job when `job` carries its current claim's token. */
  private holding(job: Job<T>): QueuedJob | undefined {
    const current = this.jobs.get(job.id);
    return current?.token !== undefined && current.token === job.token ? current : undefined;
  }

  /** Only a group's head is ever claimed, so a settled job is always its group's first. */
  private remove(job: QueuedJob): void {
    this.jobs.delete(job.id);
    const ids = this.groups.get(job.group)!;
    ids.shift();
    if (ids.length === 0) this.groups.delete(job.group);
  }
}
