/**
 * Drains durable queues on every replica (the order webhook outboxes, the checkout completion
 * jobs), one queue per tenant served, so a deployment never takes another's jobs: claims due
 * jobs (a lease, so a replica that dies mid job hands its jobs to another once the lease runs
 * out), runs them, then acks, schedules a retry, or dead-letters after the last attempt. A few
 * jobs run at once; the queue never hands out two jobs of one group together, so each group's
 * jobs run in order. Stopping stops claiming and waits, within a bound, for jobs in flight.
 * `drain` runs what is due now, once (operators' tools and tests).
 */
import type { BaseLogger } from 'pino';
import { backoffSchedule, type RetrySchedule } from './retry-schedule.js';
import type { DurableQueue, Job } from './store.js';

/** What running one job came to. */
export type JobResult =
  | { outcome: 'delivered'; status?: number }
  /** `permanent`: retrying cannot help, dead-letter now. */
  | { outcome: 'failed'; reason: string; permanent: boolean };

type OutboxOutcome = 'delivered' | 'retried' | 'dead_lettered';

/** Handed to a worker: it reports each delivery attempt (observability/metrics.ts implements it). */
export interface OutboxMetrics {
  /** `facts`: how long the attempt took and whose job it was (the tenant its describe() names). */
  attempt(outcome: OutboxOutcome, facts?: { seconds: number; tenant?: string }): void;
}

/** Where a worker's queue is registered for metrics: its depth is read on scrape, attempts counted. */
export interface QueueMetrics {
  outbox(queue: string, source: Pick<DurableQueue<unknown>, 'depth'>): OutboxMetrics;
}

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
  /** The queues to drain (one per tenant served), asked on every poll: a reload may change them. */
  queues(): ReadonlyArray<DurableQueue<T>>;
  deliver(payload: T): Promise<JobResult>;
  /** Log fields of a job (ids, never secrets). */
  describe(payload: T): Record<string, unknown>;
  names: WorkerNames;
  schedule: RetrySchedule;
  metrics: OutboxMetrics;
  log: Pick<BaseLogger, 'info' | 'warn' | 'error'>;
  now: () => number;
}

interface Claimed<T> {
  queue: DurableQueue<T>;
  job: Job<T>;
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
  /** Which queue the next poll asks first, so no tenant's jobs always wait for the others'. */
  private first = 0;

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
    const queues = this.deps.queues();
    const claimed: Array<Claimed<T>> = [];
    try {
      for (let i = 0; i < queues.length && claimed.length < free; i++) {
        const queue = queues[(this.first + i) % queues.length]!;
        for (const job of await queue.claim(free - claimed.length, this.settings.leaseMs)) claimed.push({ queue, job });
      }
      if (this.unreachable) this.deps.log.info(`${this.deps.names.job}s: ${this.deps.names.queue} answers again`);
      this.unreachable = false;
    } catch (error) {
      if (!this.unreachable)
        this.deps.log.warn({ err: error }, `${this.deps.names.job}s: cannot reach ${this.deps.names.queue}; trying again every poll`);
      this.unreachable = true;
    }
    this.first = queues.length === 0 ? 0 : (this.first + 1) % queues.length;
    this.backlog = free > 0 && claimed.length === free;
    for (const one of claimed) {
      const running = this.process(one).finally(() => {
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
    for (const queue of this.deps.queues()) {
      for (;;) {
        const claimed = await queue.claim(Math.max(1, this.settings.concurrency), this.settings.leaseMs);
        if (claimed.length === 0) break;
        await Promise.all(claimed.map((job) => this.process({ queue, job })));
        ran += claimed.length;
      }
    }
    return ran;
  }

  private async process({ queue, job }: Claimed<T>): Promise<void> {
    const { names } = this.deps;
    const about = { ...this.deps.describe(job.payload), attempt: job.attempts + 1 };
    let result: JobResult;
    const started = performance.now();
    try {
      result = await this.deps.deliver(job.payload);
    } catch (error) {
      this.deps.log.error({ ...about, err: error }, `${names.job}: failed unexpectedly`);
      result = { outcome: 'failed', reason: 'internal error', permanent: false };
    }
    const { tenant } = about as { tenant?: unknown };
    const facts = { seconds: (performance.now() - started) / 1000, ...(typeof tenant === 'string' && { tenant }) };
    try {
      await this.settle(queue, job, result, about, facts);
    } catch (error) {
      // The lease runs out and the job runs again (at least once, same id).
      this.deps.log.warn({ ...about, err: error }, `${names.job}: could not record the outcome; it will be retried`);
    }
  }

  private async settle(
    queue: DurableQueue<T>,
    job: Job<T>,
    result: JobResult,
    about: Record<string, unknown>,
    facts: Parameters<OutboxMetrics['attempt']>[1],
  ): Promise<void> {
    const { metrics, log, schedule, names } = this.deps;
    if (result.outcome === 'delivered') {
      if (await queue.ack(job)) metrics.attempt('delivered', facts);
      log.info({ ...about, ...(result.status !== undefined && { status: result.status }) }, `${names.job} delivered`);
      return;
    }
    const failed = job.attempts + 1;
    if (result.permanent || failed >= schedule.maxAttempts) {
      if (await queue.deadLetter(job, result.reason)) metrics.attempt('dead_lettered', facts);
      log.warn({ ...about, reason: result.reason }, `${names.job} dead-lettered`);
      return;
    }
    const retryAt = this.deps.now() + schedule.delayMs(failed);
    if (await queue.retry(job, retryAt)) metrics.attempt('retried', facts);
    log.info({ ...about, reason: result.reason, retry_at: new Date(retryAt).toISOString() }, `${names.job} failed; retrying later`);
  }
}

/** Several queues (one per tenant) as one depth, for the metrics. */
export function combinedDepth(queues: () => ReadonlyArray<DurableQueue<unknown>>): Pick<DurableQueue<unknown>, 'depth'> {
  return {
    depth: async () => {
      const depths = await Promise.all(queues().map((queue) => queue.depth()));
      return depths.reduce((sum, d) => ({ queued: sum.queued + d.queued, dead: sum.dead + d.dead }), { queued: 0, dead: 0 });
    },
  };
}

/** A worker for background jobs (completions, polls): the default backoff, two at a time, first poll after `pollMs`. */
export function jobWorker<T>(deps: Omit<WorkerDeps<T>, 'schedule'>, pollMs: number): QueueWorker<T> {
  return new QueueWorker<T>(
    { ...deps, schedule: backoffSchedule() },
    { concurrency: 2, pollMs, leaseMs: 120_000, drainMs: 10_000, firstPollMs: pollMs },
  );
}
