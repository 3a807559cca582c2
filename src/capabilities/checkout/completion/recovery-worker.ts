/**
 * The worker that drains the completion queue (completion/recovery-queue.ts) on every replica. A job that
 * finds its attempt already settled does nothing; one whose store does not answer is retried on
 * the backoff schedule and dead-lettered (visible in `npm run outbox`) after a day.
 */
import type { GatewaySecret } from '../../../config/gateway-secret.js';
import { jobWorker, type JobResult, type OutboxMetrics, type QueueWorker } from '../../../state/queue-worker.js';
import type { StateStore } from '../../../state/store.js';
import type { Tenant } from '../../../tenancy/tenant.js';
import type { Logger } from '../../context.js';
import { checkoutRepository } from '../checkout-repository.js';
import { recoverInBackground } from './complete.js';
import { completionQueue, type CompletionJob } from './recovery-queue.js';

export interface CompletionWorkerDeps {
  pollMs: number;
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
  log: Logger;
  metrics: OutboxMetrics;
  /** The tenants served, as currently configured. */
  tenants(): readonly Tenant[];
}

async function runCompletionJob(job: CompletionJob, deps: CompletionWorkerDeps): Promise<JobResult> {
  const tenant = deps.tenants().find((t) => t.id === job.tenantId);
  if (!tenant) return { outcome: 'failed', reason: `tenant ${job.tenantId} is not configured`, permanent: false };
  const ctx = { tenant, store: deps.store, secret: deps.secret, now: deps.now, log: deps.log };
  const session = await checkoutRepository(ctx).find(job.checkoutId);
  if (session?.status !== 'complete_in_progress' || session.completion.attemptAt !== job.attemptAt) return { outcome: 'delivered' };
  const settled = await recoverInBackground(ctx, session);
  deps.log.info({ tenant: tenant.id, checkout: job.checkoutId, outcome: settled }, 'interrupted completion recovered');
  return settled === 'waiting'
    ? { outcome: 'failed', reason: 'the attempt may still be running', permanent: false }
    : { outcome: 'delivered' };
}

export function completionWorker(deps: CompletionWorkerDeps): QueueWorker<CompletionJob> {
  const names = { job: 'completion recovery', queue: 'the completion queue' };
  const describe = (job: CompletionJob) => ({ tenant: job.tenantId, checkout: job.checkoutId });
  const { log, metrics, now } = deps;
  const queues = () => deps.tenants().map((tenant) => completionQueue(deps.store, tenant.id));
  return jobWorker({ queues, deliver: (job) => runCompletionJob(job, deps), describe, names, log, metrics, now }, deps.pollMs);
}
