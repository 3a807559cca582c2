/**
 * Drains a durable queue on every replica (the order webhook outbox, the checkout completion
 * jobs): claims due jobs (a lease, so a replica that dies mid job hands its jobs to another once
 * the lease runs out), runs them, then acks, schedules a retry, or dead-letters after the last
 * attempt. A few jobs run at once; the queue never hands out two jobs of one group together, so
 * each group's jobs run in order. Stopping stops claiming and waits, within a bound, for jobs in
 * flight. `drain` runs what is due now, once (operators' tools and tests).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxMetrics } from '../observability/metrics.js';
import { backoffSchedule, type RetrySchedule } from './retry-schedule.js';
import type { DurableQueue, Job } from './store.js';

/** What running one job came to. */
export type JobResult =
  | { outcome: 'delivered'; status?: number }
  /** `permanent`: retrying cannot help, dead-letter now. */
  | { outcome: 'failed'; reason: string; permanent: boolean };

/** How the worker names its jobs in log lines. */
export interface WorkerNames {
  /** One job, e.g. "order webhook". */
  job: string;
  /** The queue, e.g. "the outbox". */
  queue: string;
}

export interface WorkerSettings {
  /** Deliveries in flight at once, per replica. */
  concurrency: number;
  /** How often the queue is asked for due events while idle. */
  pollMs: number;
  /** How long a claimed event is this replica's; longer than one delivery can take. */
  leaseMs: number;
  /** How long stopping waits for deliveries in flight. */
  drainMs: number;
  /** Wait before the first poll after start (default 0: at once). */
  firstPollMs?: number;
}

export interface WorkerDeps<T> {
  queue: DurableQueue<T>;
  deliver(payload: T): Promise<JobResult>;
  /** Log fields of a job (ids, never secrets). */
  describe(payload: T): Record<string, unknown>;
  names: WorkerNames;
  schedule: RetrySchedule;
  metrics: OutboxMetrics;
  log: FastifyBaseLogger;
  now: () => number;
}

export class QueueWorker<T> {
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private running = false;
  /** The last claim filled every free slot, so more events may be due right now. */
  private backlog = false;
  /** The outbox did not answer the last claim (warned once per outage). */
  private unreachable = false;

  constructor(
    private readonly deps: WorkerDeps<T>,
    private readonly settings: WorkerSettings,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake(this.settings.firstPollMs ?? 0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.polling;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.settings.drainMs)));
    await Promise.race([Promise.allSettled(this.inFlight), bound]);
    clearTimeout(timer);
  }

  /** Polls after `delayMs`, replacing a later poll already planned. */
  private wake(delayMs: number): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.polling ??= this.poll().finally(() => (this.polling = undefined));
    }, delayMs).unref();
  }

  private async poll(): Promise<void> {
    const free = this.settings.concurrency - this.inFlight.size;
    let claimed: Array<Job<T>> = [];
    try {
      if (free > 0) claimed = await this.deps.queue.claim(free, this.settings.leaseMs);
      if (this.unreachable) this.deps.log.info(`${this.deps.names.job}s: ${this.deps.names.queue} answers again`);
      this.unreachable = false;
    } catch (error) {
      const { job, queue } = this.deps.names;
      if (!this.unreachable) this.deps.log.warn({ err: error }, `${job}s: cannot reach ${queue}; trying again every poll`);
      this.unreachable = true;
    }
    this.backlog = free > 0 && claimed.length === free;
    for (const job of claimed) {
      const running = this.process(job).finally(() => {
        this.inFlight.delete(running);
        if (this.backlog) this.wake(0);
      });
      this.inFlight.add(running);
    }
    this.wake(this.backlog ? 0 : this.settings.pollMs);
  }

  /**
   * Runs the jobs due now until none is left (a retried job is due later), besides the polling,
   * which it does not replace. Returns how many ran.
   */
  async drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      const claimed = await this.deps.queue.claim(Math.max(1, this.settings.concurrency), this.settings.leaseMs);
      if (claimed.length === 0) return ran;
      await Promise.all(claimed.map((job) => this.process(job)));
      ran += claimed.length;
    }
  }

  private async process(job: Job<T>): Promise<void> {
    const { names } = this.deps;
    const about = { ...this.deps.describe(job.payload), attempt: job.attempts + 1 };
    let result: JobResult;
    try {
      result = await this.deps.deliver(job.payload);
    } catch (error) {
      this.deps.log.error({ ...about, err: error }, `${names.job}: failed unexpectedly`);
      result = { outcome: 'failed', reason: 'internal error', permanent: false };
    }
    try {
      await this.settle(job, result, about);
    } catch (error) {
      // The lease runs out and the job runs again (at least once, same id).
      this.deps.log.warn({ ...about, err: error }, `${names.job}: could not record the outcome; it will be retried`);
    }
  }

  private async settle(job: Job<T>, result: JobResult, about: Record<string, unknown>): Promise<void> {
    const { queue, metrics, log, schedule, names } = this.deps;
    if (result.outcome === 'delivered') {
      if (await queue.ack(job)) metrics.attempt('delivered');
      log.info({ ...about, ...(result.status !== undefined && { status: result.status }) }, `${names.job} delivered`);
      return;
    }
    const failed = job.attempts + 1;
    if (result.permanent || failed >= schedule.maxAttempts) {
      if (await queue.deadLetter(job, result.reason)) metrics.attempt('dead_lettered');
      log.warn({ ...about, reason: result.reason }, `${names.job} dead-lettered`);
      return;
    }
    const retryAt = this.deps.now() + schedule.delayMs(failed);
    if (await queue.retry(job, retryAt)) metrics.attempt('retried');
    log.info({ ...about, reason: result.reason, retry_at: new Date(retryAt).toISOString() }, `${names.job} failed; retrying later`);
  }
}

/** A worker for background jobs (completions, polls): the default backoff, two at a time, first poll after `pollMs`. */
export function jobWorker<T>(deps: Omit<WorkerDeps<T>, 'schedule'>, pollMs: number): QueueWorker<T> {
  const settings = { concurrency: 2, pollMs, leaseMs: 120_000, drainMs: 10_000, firstPollMs: pollMs };
  return new QueueWorker<T>({ ...deps, schedule: backoffSchedule() }, settings);
}
