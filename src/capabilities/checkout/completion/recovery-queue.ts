/**
 * The durable queue that settles interrupted completions (see completion/complete.ts): one job per
 * completion attempt, due when the attempt is surely over, run by the worker on every replica
 * (completion/recovery-worker.ts).
 */
import type { OperationContext } from '../../context.js';
import type { DurableQueue, StateStore } from '../../../state/store.js';
import type { CompletingCheckout } from '../checkout-record.js';

export const COMPLETION_QUEUE = 'checkout-completions';

export interface CompletionJob {
  tenantId: string;
  checkoutId: string;
  /** The attempt this job watches (`Completion.attemptAt`). */
  attemptAt: number;
}

/** How long an attempt may still be charging and placing: no other may start before, and its recovery job waits as long. */
export const attemptLeaseMs = (ctx: Pick<OperationContext, 'tenant'>) => 2 * ctx.tenant.policies.backend.timeoutMs;

export const completionQueue = (store: StateStore, tenantId: string): DurableQueue<CompletionJob> =>
  store.queue<CompletionJob>(`${COMPLETION_QUEUE}:${tenantId}`);

/**
 * Queues the recovery of `session`'s current attempt: due when the attempt is surely over, or,
 * with `now` (the placement is known to be unsettled), at once: an order the store placed is
 * then found by reference without waiting. Jobs are independent (no group): each checks the state.
 */
export async function enqueueRecovery(
  ctx: Pick<OperationContext, 'store' | 'tenant'>,
  session: CompletingCheckout,
  now?: number,
): Promise<void> {
  const { attemptAt } = session.completion;
  const id = `complete:${ctx.tenant.id}:${session.id}:${attemptAt}:${now === undefined ? 'lease' : 'now'}`;
  const payload = { tenantId: ctx.tenant.id, checkoutId: session.id, attemptAt };
  await completionQueue(ctx.store, ctx.tenant.id).enqueue({ id, payload, availableAt: now ?? attemptAt + attemptLeaseMs(ctx) });
}
