/**
 * Drains the outbox on every replica: claims due events from the queues of the tenants it serves
 * (a lease, so a replica that dies mid delivery hands its events to another once the lease runs
 * out), delivers them, then acks, schedules a retry, or dead-letters after the last attempt. A few deliveries run at once; the
 * queue never hands out two events of one order together, so each order's events arrive in
 * order. Stopping stops claiming and waits, within a bound, for deliveries in flight.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { OutboxMetrics } from '../observability/metrics.js';
import type { DurableQueue, Job } from '../state/store.js';
import type { DeliveryResult } from './delivery.js';
import type { OrderEvent } from './order-event.js';
import type { RetrySchedule } from './retry-schedule.js';

export interface WorkerSettings {
  /** Deliveries in flight at once, per replica. */
  concurrency: number;
  /** How often the queue is asked for due events while idle. */
  pollMs: number;
  /** How long a claimed event is this replica's; longer than one delivery can take. */
  leaseMs: number;
  /** How long stopping waits for deliveries in flight. */
  drainMs: number;
}

export interface WorkerDeps {
  /** The outbox queues to drain, asked on every poll (a reload may change the tenants served). */
  queues(): ReadonlyArray<DurableQueue<OrderEvent>>;
  deliver(event: OrderEvent): Promise<DeliveryResult>;
  schedule: RetrySchedule;
  metrics: OutboxMetrics;
  log: FastifyBaseLogger;
  now: () => number;
}

export class DeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private running = false;
  /** The last claim filled every free slot, so more events may be due right now. */
  private backlog = false;
  /** The outbox did not answer the last claim (warned once per outage). */
  private unreachable = false;
  /** Which queue the next poll asks first, so no tenant's events always wait for the others'. */
  private first = 0;

  constructor(
    private readonly deps: WorkerDeps,
    private readonly settings: WorkerSettings,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake(0);
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
    const claimed: Array<{ queue: DurableQueue<OrderEvent>; job: Job<OrderEvent> }> = [];
    try {
      for (let i = 0; i < queues.length && claimed.length < free; i++) {
        const queue = queues[(this.first + i) % queues.length]!;
        for (const job of await queue.claim(free - claimed.length, this.settings.leaseMs)) claimed.push({ queue, job });
      }
      if (this.unreachable) this.deps.log.info('order webhooks: the outbox answers again');
      this.unreachable = false;
    } catch (error) {
      if (!this.unreachable) this.deps.log.warn({ err: error }, 'order webhooks: cannot reach the outbox; trying again every poll');
      this.unreachable = true;
    }
    this.first = queues.length === 0 ? 0 : (this.first + 1) % queues.length;
    this.backlog = free > 0 && claimed.length === free;
    for (const { queue, job } of claimed) {
      const running = this.process(queue, job).finally(() => {
        this.inFlight.delete(running);
        if (this.backlog) this.wake(0);
      });
      this.inFlight.add(running);
    }
    this.wake(this.backlog ? 0 : this.settings.pollMs);
  }

  private async process(queue: DurableQueue<OrderEvent>, job: Job<OrderEvent>): Promise<void> {
    const { id, kind, tenantId, order } = job.payload;
    const attempt = job.attempts + 1;
    const about = { tenant: tenantId, order: order.id, event: id, kind, attempt };
    let result: DeliveryResult;
    try {
      result = await this.deps.deliver(job.payload);
    } catch (error) {
      this.deps.log.error({ ...about, err: error }, 'order webhook: delivery failed unexpectedly');
      result = { outcome: 'failed', reason: 'internal error', permanent: false };
    }
    try {
      await this.settle(queue, job, result, about);
    } catch (error) {
      // The lease runs out and the event is delivered again (at least once, same Webhook-Id).
      this.deps.log.warn({ ...about, err: error }, 'order webhook: could not record the outcome; it will be retried');
    }
  }

  private async settle(
    queue: DurableQueue<OrderEvent>,
    job: Job<OrderEvent>,
    result: DeliveryResult,
    about: Record<string, unknown>,
  ): Promise<void> {
    const { metrics, log, schedule } = this.deps;
    if (result.outcome === 'delivered') {
      if (await queue.ack(job)) metrics.attempt('delivered');
      log.info({ ...about, status: result.status }, 'order webhook delivered');
      return;
    }
    const failed = job.attempts + 1;
    if (result.permanent || failed >= schedule.maxAttempts) {
      if (await queue.deadLetter(job, result.reason)) metrics.attempt('dead_lettered');
      log.warn({ ...about, reason: result.reason }, 'order webhook dead-lettered');
      return;
    }
    const retryAt = this.deps.now() + schedule.delayMs(failed);
    if (await queue.retry(job, retryAt)) metrics.attempt('retried');
    log.info({ ...about, reason: result.reason, retry_at: new Date(retryAt).toISOString() }, 'order webhook failed; retrying later');
  }
}
