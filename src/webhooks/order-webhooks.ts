/**
 * Order webhooks in one place for the server: the backend webhook endpoint and the simulation
 * API (where order changes come from), and the outbox worker that delivers order events to
 * platforms, started with the app and stopped (after its deliveries in flight) when it closes.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewaySecret } from '../config/gateway-secret.js';
import type { Metrics } from '../observability/metrics.js';
import type { DurableQueue, StateStore } from '../state/store.js';
import type { TenantRouting } from '../transports/request-context.js';
import { deliverOrderEvent, DELIVERY_TIMEOUT_MS } from './delivery.js';
import { DeliveryWorker } from './delivery-worker.js';
import { registerBackendWebhooks } from './inbound.js';
import { ORDER_WEBHOOK_QUEUE, orderWebhookQueue } from './outbox.js';
import { backoffSchedule, type RetrySchedule } from './retry-schedule.js';
import { registerOrderSimulation } from './simulation-route.js';

export interface WebhookSettings {
  /** Deliveries in flight at once, per replica. */
  concurrency: number;
  /** How often an idle replica looks for due events. */
  pollMs: number;
  /** Deadline of one delivery attempt. */
  timeoutMs: number;
  schedule: RetrySchedule;
}

const defaultWebhookSettings = (): WebhookSettings => ({ concurrency: 4, pollMs: 1000, timeoutMs: DELIVERY_TIMEOUT_MS, schedule: backoffSchedule() });

export interface OrderWebhookDeps {
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
  metrics: Metrics;
  routing: TenantRouting;
  settings?: Partial<WebhookSettings>;
}

/** The outbox as one number for the metrics: every served tenant's queue together. */
async function totalDepth(queues: ReadonlyArray<DurableQueue<unknown>>): Promise<{ queued: number; dead: number }> {
  const depths = await Promise.all(queues.map((queue) => queue.depth()));
  return depths.reduce((sum, d) => ({ queued: sum.queued + d.queued, dead: sum.dead + d.dead }), { queued: 0, dead: 0 });
}

export function registerOrderWebhooks(app: FastifyInstance, deps: OrderWebhookDeps): void {
  const { store, secret, now, routing } = deps;
  const settings = { ...defaultWebhookSettings(), ...deps.settings };
  registerBackendWebhooks(app, { store, now });
  registerOrderSimulation(app, { store, secret, now });

  const queues = () => routing.registry.tenants.map((tenant) => orderWebhookQueue(store, tenant.id));
  const worker = new DeliveryWorker(
    {
      queues,
      deliver: (event) =>
        deliverOrderEvent(event, { tenant: (id) => routing.registry.tenants.find((t) => t.id === id), secret, now, timeoutMs: settings.timeoutMs }),
      schedule: settings.schedule,
      metrics: deps.metrics.outbox(ORDER_WEBHOOK_QUEUE, { depth: () => totalDepth(queues()) }),
      log: app.log.child({ component: 'order-webhooks' }),
      now,
    },
    // A lease outlives the longest attempt many times over; stopping waits for one attempt.
    { concurrency: settings.concurrency, pollMs: settings.pollMs, leaseMs: Math.max(60_000, 6 * settings.timeoutMs), drainMs: settings.timeoutMs + 1000 },
  );
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
}
