/**
 * The durable queue that settles interrupted completions (see completion.ts): one job per
 * completion attempt, due when the attempt is surely over, run by a worker on every replica.
 * A job that finds its attempt already settled does nothing; one whose store does not answer is
 * retried on the backoff schedule and dead-lettered (visible in `npm run outbox`) after a day.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GatewaySecret } from '../../config/gateway-secret.js';
import type { Metrics, OutboxMetrics } from '../../observability/metrics.js';
import type { OperationContext } from '../../operations/context.js';
import { combinedDepth, jobWorker, type JobResult, type QueueWorker } from '../../state/queue-worker.js';
import type { DurableQueue, StateStore } from '../../state/store.js';
import type { Tenant } from '../../tenancy/tenant.js';
import type { CompletingCheckout } from './checkout-record.js';
import { checkoutRepository } from './checkout-repository.js';
import { attemptLeaseMs, recoverInBackground } from './completion.js';

export const COMPLETION_QUEUE = 'checkout-completions';

export interface CompletionJob {
  tenantId: string;
  checkoutId: string;
  /** The attempt this job watches (`Completion.attemptAt`). */
  attemptAt: number;
}

export const completionQueue = (store: StateStore, tenantId: string): DurableQueue<CompletionJob> =>
  store.queue<CompletionJob>(`${COMPLETION_QUEUE}:${tenantId}`);

/**
 * Queues the recovery of `session`'s current attempt: due when the attempt is surely over, or,
 * with `now` (the placement is known to be unsettled), at once: an order the store placed is
 * then found by reference without waiting. Jobs are independent (no group): each checks the state.
 */
export async function enqueueRecovery(ctx: Pick<OperationContext, 'store' | 'tenant'>, session: CompletingCheckout, now?: number): Promise<void> {
  const { attemptAt } = session.completion;
  const id = `complete:${ctx.tenant.id}:${session.id}:${attemptAt}:${now === undefined ? 'lease' : 'now'}`;
  const payload = { tenantId: ctx.tenant.id, checkoutId: session.id, attemptAt };
  await completionQueue(ctx.store, ctx.tenant.id).enqueue({ id, payload, availableAt: now ?? attemptAt + attemptLeaseMs(ctx) });
}

export interface CompletionWorkerDeps {
  pollMs: number;
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
  log: FastifyBaseLogger;
  metrics: OutboxMetrics;
  /** The tenants served, as currently configured. */
  tenants(): readonly Tenant[];
}

export async function runCompletionJob(job: CompletionJob, deps: CompletionWorkerDeps): Promise<JobResult> {
  const tenant = deps.tenants().find((t) => t.id === job.tenantId);
  if (!tenant) return { outcome: 'failed', reason: `tenant ${job.tenantId} is not configured`, permanent: false };
  const ctx = { tenant, store: deps.store, secret: deps.secret, now: deps.now, log: deps.log };
  const session = await checkoutRepository(ctx).find(job.checkoutId);
  if (session?.status !== 'complete_in_progress' || session.completion.attemptAt !== job.attemptAt) return { outcome: 'delivered' };
  const settled = await recoverInBackground(ctx, session);
  deps.log.info({ tenant: tenant.id, checkout: job.checkoutId, outcome: settled }, 'interrupted completion recovered');
  return settled === 'waiting' ? { outcome: 'failed', reason: 'the attempt may still be running', permanent: false } : { outcome: 'delivered' };
}

export function completionWorker(deps: CompletionWorkerDeps): QueueWorker<CompletionJob> {
  const names = { job: 'completion recovery', queue: 'the completion queue' };
  const describe = (job: CompletionJob) => ({ tenant: job.tenantId, checkout: job.checkoutId });
  const { log, metrics, now } = deps;
  const queues = () => deps.tenants().map((tenant) => completionQueue(deps.store, tenant.id));
  return jobWorker({ queues, deliver: (job) => runCompletionJob(job, deps), describe, names, log, metrics, now }, deps.pollMs);
}

/** Starts the worker with the app and stops it (after the jobs in flight) when the app closes. */
export function registerCompletionQueue(
  app: FastifyInstance,
  deps: Omit<CompletionWorkerDeps, 'log' | 'metrics'> & { metrics: Metrics },
): QueueWorker<CompletionJob> {
  const worker = completionWorker({
    ...deps,
    log: app.log.child({ component: 'checkout-completions' }),
    metrics: deps.metrics.outbox(COMPLETION_QUEUE, combinedDepth(() => deps.tenants().map((tenant) => completionQueue(deps.store, tenant.id)))),
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
  return worker;
}
