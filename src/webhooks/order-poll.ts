/**
 * Order changes of stores without webhooks (or whose webhooks may be lost): every tenant whose
 * adapter has `ordersChangedSince` is polled every `adapter.order_poll_seconds` (default: the
 * adapter's `orderPollSeconds`, else 60). The polls are jobs of a durable
 * queue, one per tenant and time slot, so with many replicas each slot is polled once (a replica
 * starting late may poll a slot again: harmless, every change is processed once). Each job asks
 * for the orders changed since the tenant's cursor (kept in the state store), reconciles each
 * change like a backend webhook (reconcile.ts), moves the cursor, and queues the next slot.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { GatewaySecret } from '../config/gateway-secret.js';
import { jobWorker, type JobResult, type OutboxMetrics, type QueueWorker } from '../state/queue-worker.js';
import type { DurableQueue, StateStore } from '../state/store.js';
import type { Tenant } from '../tenancy/tenant.js';
import { reconcileOrder } from './reconcile.js';

export const ORDER_POLL_QUEUE = 'order-polls';

const DEFAULT_POLL_SECONDS = 60;
/** A first poll looks this far back (handoffs shortly before the gateway started). */
const FIRST_LOOKBACK_MS = 86_400_000;
const CURSOR_TTL_MS = 30 * 86_400_000;

export interface PollJob {
  tenantId: string;
  /** Epoch ms at which this poll is due (slot start). */
  slotAt: number;
}

export const orderPollQueue = (store: StateStore, tenantId: string): DurableQueue<PollJob> =>
  store.queue<PollJob>(`${ORDER_POLL_QUEUE}:${tenantId}`);

export interface PollDeps {
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
  log: FastifyBaseLogger;
  tenants(): readonly Tenant[];
}

const intervalMs = (tenant: Tenant) =>
  (tenant.config.adapter.order_poll_seconds ?? tenant.adapter.orderPollSeconds ?? DEFAULT_POLL_SECONDS) * 1000;

export const polled = (tenant: Tenant) => tenant.adapter.ordersChangedSince !== undefined;

/** Queues the poll of the slot that starts at or before `at` (a no-op while that job is queued). */
export async function schedulePoll(store: StateStore, tenant: Tenant, at: number): Promise<void> {
  const interval = intervalMs(tenant);
  const slotAt = Math.floor(at / interval) * interval;
  await orderPollQueue(store, tenant.id).enqueue({
    id: `poll:${tenant.id}:${slotAt}`,
    payload: { tenantId: tenant.id, slotAt },
    availableAt: slotAt,
  });
}

async function runPoll(job: PollJob, deps: PollDeps): Promise<JobResult> {
  const tenant = deps.tenants().find((t) => t.id === job.tenantId);
  if (!tenant?.adapter.ordersChangedSince) return { outcome: 'delivered' };
  const cursorKey = `order-poll:${tenant.id}`;
  const since = (await deps.store.get<string>(cursorKey))?.value ?? new Date(deps.now() - FIRST_LOOKBACK_MS).toISOString();
  const changes = await tenant.adapter.ordersChangedSince(since);
  let cursor = since;
  for (const change of changes) {
    // No delivery ids here: a change seen twice (polls overlap) is recognized by its snapshot.
    const outcome = await reconcileOrder(deps, tenant, {
      eventId: `poll:${change.orderId}`,
      orderId: change.orderId,
      polled: true,
      ...(change.reference !== undefined && { reference: change.reference }),
      ...(change.storeReference !== undefined && { storeReference: change.storeReference }),
    });
    if (outcome === 'created' || outcome === 'queued') deps.log.info({ tenant: tenant.id, order: change.orderId, outcome }, 'order poll');
    if (change.updatedAt > cursor) cursor = change.updatedAt;
  }
  await deps.store.set(cursorKey, cursor, CURSOR_TTL_MS);
  await schedulePoll(deps.store, tenant, job.slotAt + intervalMs(tenant));
  return { outcome: 'delivered' };
}

export function orderPollWorker(deps: PollDeps & { metrics: OutboxMetrics; pollMs: number }): QueueWorker<PollJob> {
  const names = { job: 'order poll', queue: 'the poll queue' };
  const describe = (job: PollJob) => ({ tenant: job.tenantId, slot: new Date(job.slotAt).toISOString() });
  const { log, metrics, now } = deps;
  const queues = () => deps.tenants().map((tenant) => orderPollQueue(deps.store, tenant.id));
  return jobWorker({ queues, deliver: (job) => runPoll(job, deps), describe, names, log, metrics, now }, deps.pollMs);
}
