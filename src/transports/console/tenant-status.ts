/**
 * What the console shows of a tenant, gathered from where it lives: the tenant (adapter,
 * finishing, circuit), the metrics (recent backend health and problems, requests by transport,
 * rate-limit refusals), the state store (its order-webhook outbox) and, on the tenant's own page
 * only, the store itself (its webhook registrations, when the adapter can read them).
 */
import type { WebhookSetup } from '../../../adapters/contract.js';
import type { OrderEvent } from '../../capabilities/order/order-event.js';
import { orderWebhookQueue } from '../../capabilities/order/outbox.js';
import type { HealthSummary } from '../../observability/backend-health.js';
import type { Metrics, TenantTraffic } from '../../observability/metrics.js';
import type { DeadJob, StateStore } from '../../state/store.js';
import type { CircuitName } from '../../tenancy/backend-circuit.js';
import type { Tenant } from '../../tenancy/tenant.js';

/** How long the tenant page waits for the store's webhook list. */
const SETUP_DEADLINE_MS = 5000;

export interface TenantStatus {
  id: string;
  name: string;
  adapter: string;
  finishing: string;
  circuit: { state: CircuitName; changedAt?: number };
  health: HealthSummary;
  traffic: TenantTraffic;
}

export async function tenantStatus(tenant: Tenant, metrics: Metrics): Promise<TenantStatus> {
  const { changedAt } = tenant.circuit;
  return {
    id: tenant.id,
    name: tenant.name,
    adapter: tenant.config.adapter.type,
    finishing: tenant.finishing,
    circuit: { state: tenant.circuit.state, ...(changedAt !== undefined && { changedAt }) },
    health: metrics.health.summary(tenant.id),
    traffic: await metrics.traffic(tenant.id),
  };
}

export interface OutboxStatus {
  queued: number;
  /** When the earliest waiting job is (or was) due: in the past, how long the backlog's oldest has waited. */
  nextDueAt?: number;
  dead: Array<DeadJob<OrderEvent>>;
}

/** Undefined when the state store cannot be read now. */
export async function outboxStatus(store: StateStore, tenantId: string): Promise<OutboxStatus | undefined> {
  const queue = orderWebhookQueue(store, tenantId);
  try {
    const [depth, dead, nextDueAt] = await Promise.all([queue.depth(), queue.listDead(), queue.nextDueAt()]);
    return { queued: depth.queued, dead, ...(nextDueAt !== undefined && { nextDueAt }) };
  } catch {
    return undefined;
  }
}

export type Registrations = { setup: WebhookSetup } | { unavailable: string } | { unsupported: true };

/** The store's webhooks, read-only; a store that does not answer in time says so (never its text). */
export async function webhookRegistrations(tenant: Tenant): Promise<Registrations> {
  const setup = tenant.adapter.setup;
  if (!setup?.webhooks) return { unsupported: true };
  try {
    return { setup: await setup.webhooks(AbortSignal.timeout(SETUP_DEADLINE_MS)) };
  } catch (error) {
    const name = error instanceof Error ? error.name : 'error';
    return { unavailable: name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${SETUP_DEADLINE_MS / 1000} s` : name };
  }
}
