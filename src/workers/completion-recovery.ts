/**
 * Completion recovery as part of the app: the worker (src/capabilities/checkout/completion/recovery-worker.ts)
 * starts when the app is ready and stops, after the jobs in flight, when it closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { completionQueue, COMPLETION_QUEUE } from '../capabilities/checkout/completion/recovery-queue.js';
import { completionWorker, type CompletionWorkerDeps } from '../capabilities/checkout/completion/recovery-worker.js';
import { combinedDepth, type QueueMetrics, type QueueWorker } from '../state/queue-worker.js';

export type CompletionRecoveryOptions = Omit<CompletionWorkerDeps, 'log' | 'metrics'> & { metrics: QueueMetrics };

declare module 'fastify' {
  interface FastifyInstance {
    /** Settles interrupted checkout completions (drain() runs the due jobs now). */
    completions: QueueWorker<unknown>;
  }
}

/** Starts the worker with the app and stops it (after the jobs in flight) when the app closes; the app's `completions`. */
async function addCompletionRecovery(app: FastifyInstance, deps: CompletionRecoveryOptions): Promise<void> {
  const worker = completionWorker({
    ...deps,
    log: app.log.child({ component: 'checkout-completions' }),
    metrics: deps.metrics.outbox(
      COMPLETION_QUEUE,
      combinedDepth(() => deps.tenants().map((tenant) => completionQueue(deps.store, tenant.id))),
    ),
  });
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
  app.decorate('completions', worker);
}

/** Through fastify-plugin: the worker's hooks and decorator are the app's. */
export const completionRecovery = fp(addCompletionRecovery, { name: 'completion-recovery' });
