/**
 * The durable queue on Redis: each operation is one Lua script over the queue's keys (layout in
 * redis-scripts.ts), all under one hash tag so a Cluster keeps them in one slot. Claiming reads
 * only the due part of a sorted set, so jobs waiting for a later retry cost nothing.
 */
import type { ScriptName } from './redis-scripts.js';
import type { DeadJob, DurableQueue, Job } from './store.js';
import { checkMax, checkTime, decodeJson, durationMillis, encodeJson } from './values.js';

export type RunScript = (name: ScriptName, keys: string[], args: Array<string | number>) => Promise<unknown>;

export class RedisQueue<T> implements DurableQueue<T> {
  private readonly ready: string;
  private readonly fence: string;
  private readonly queued: string;
  private readonly dead: string;

  /** `prefix` is `<keyPrefix>{q:<name>}:`: the braces are the hash tag. */
  constructor(
    private readonly script: RunScript,
    private readonly prefix: string,
    private readonly now: () => number,
  ) {
    this.ready = `${prefix}ready`;
    this.fence = `${prefix}fence`;
    this.queued = `${prefix}queued`;
    this.dead = `${prefix}dead`;
  }

  async enqueue(job: { id: string; group?: string; payload: T; availableAt?: number }): Promise<void> {
    const group = job.group ?? job.id;
    const due = job.availableAt ?? this.now();
    checkTime(due, 'availableAt');
    await this.script(
      'queueEnqueue',
      [this.job(job.id), this.group(group), this.ready, this.queued],
      [job.id, group, encodeJson(job.payload), due],
    );
  }

  async claim(max: number, leaseMs: number): Promise<Array<Job<T>>> {
    checkMax(max);
    const now = this.now();
    const leaseEnd = now + durationMillis(leaseMs, 'leaseMs');
    const claimed = (await this.script('queueClaim', [this.ready, this.fence], [this.prefix, now, leaseEnd, max])) as Array<
      [string, string, string, number, string]
    >;
    return claimed.map(([id, group, payload, attempts, token]) => ({ id, group, payload: decodeJson<T>(payload), attempts, token }));
  }

  async ack(job: Job<T>): Promise<boolean> {
    return (await this.script('queueAck', [this.job(job.id), this.ready, this.queued], [this.prefix, job.id, job.token])) === 1;
  }

  async retry(job: Job<T>, availableAt: number): Promise<boolean> {
    checkTime(availableAt, 'availableAt');
    return (await this.script('queueRetry', [this.job(job.id), this.ready], [job.id, job.token, availableAt])) === 1;
  }

  async deadLetter(job: Job<T>, reason: string): Promise<boolean> {
    const keys = [this.job(job.id), this.ready, this.queued, this.dead];
    return (await this.script('queueDeadLetter', keys, [this.prefix, job.id, job.token, reason, this.now()])) === 1;
  }

  async listDead(): Promise<Array<DeadJob<T>>> {
    const dead = (await this.script('queueListDead', [this.dead], [this.prefix])) as Array<
      [string, string, string, string, string, string]
    >;
    return dead.map(([id, group, payload, attempts, reason, diedAt]) => ({
      id,
      group,
      payload: decodeJson<T>(payload),
      attempts: Number(attempts),
      reason,
      diedAt: Number(diedAt),
    }));
  }

  async replay(id: string): Promise<boolean> {
    const keys = [this.job(id), this.ready, this.queued, this.dead];
    return (await this.script('queueReplay', keys, [this.prefix, id, this.now()])) === 1;
  }

  async nextDueAt(): Promise<number | undefined> {
    const due = (await this.script('queueNextDue', [this.ready], [])) as string | null;
    return due === null ? undefined : Number(due);
  }

  async discard(id: string): Promise<boolean> {
    return (await this.script('queueDiscard', [this.job(id), this.dead], [id])) === 1;
  }

  async depth(): Promise<{ queued: number; dead: number }> {
    const [queued, dead] = (await this.script('queueDepth', [this.queued, this.dead], [])) as [number, number];
    return { queued, dead };
  }

  private job(id: string): string {
    return `${this.prefix}job:${id}`;
  }

  private group(group: string): string {
    return `${this.prefix}group:${group}`;
  }
}
