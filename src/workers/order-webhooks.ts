/**
 * The order webhook workers, started with the app and stopped (after their jobs in flight) when it
 * closes: the order polls of stores without webhooks (where their order changes come from), and
 * the outbox worker that delivers order events to platforms. The routes where order changes come
 * in are transports of their own (inbound.ts, simulation-route.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewaySecret } from '../config/gateway-secret.js';
import type { Metrics } from '../observability/metrics.js';
import type { StateStore } from '../state/store.js';
import type { TenantRouting } from '../transports/request-context.js';
import { deliverOrderEvent, DELIVERY_TIMEOUT_MS } from '../webhooks/delivery.js';
import { ORDER_POLL_QUEUE, orderPollQueue, orderPollWorker, polled, schedulePoll } from '../webhooks/order-poll.js';
import { ORDER_WEBHOOK_QUEUE, orderWebhookQueue } from '../capabilities/order/outbox.js';
import { combinedDepth, QueueWorker, type WorkerNames } from '../state/queue-worker.js';
import { backoffSchedule, type RetrySchedule } from '../state/retry-schedule.js';
import type { OrderEvent } from '../capabilities/order/order-event.js';

export interface WebhookSettings {
  /** Deliveries in flight at once, per replica. */
  concurrency: number;
  /** How often an idle replica looks for due events. */
  pollMs: number;
  /** Deadline of one delivery attempt. */
  timeoutMs: number;
  schedule: RetrySchedule;
}

const defaultWebhookSettings = (): WebhookSettings => ({
  concurrency: 4,
  pollMs: 1000,
  timeoutMs: DELIVERY_TIMEOUT_MS,
  schedule: backoffSchedule(),
});

export interface OrderWebhookDeps {
  store: StateStore;
  secret: GatewaySecret;
  now: () => number;
  metrics: Metrics;
  routing: TenantRouting;
  settings?: Partial<WebhookSettings>;
  /** How often an idle replica looks for due order polls. */
  jobPollMs: number;
}

export const ORDER_WEBHOOK_NAMES: WorkerNames = { job: 'order webhook', queue: 'the outbox' };

export const describeOrderEvent = (event: OrderEvent) => ({
  tenant: event.tenantId,
  order: event.order.id,
  event: event.id,
  kind: event.kind,
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Polls stores without webhooks for changed orders (drain() runs the due polls now). */
    orderPolls: QueueWorker<unknown>;
  }
}

/** Starts both workers with the app and stops them when it closes; the order poll worker is the app's `orderPolls`. */
async function addOrderWebhooks(app: FastifyInstance, deps: OrderWebhookDeps): Promise<void> {
  const { store, secret, now, routing } = deps;
  const settings = { ...defaultWebhookSettings(), ...deps.settings };
  const queues = () => routing.registry.tenants.map((tenant) => orderWebhookQueue(store, tenant.id));
  const worker = new QueueWorker<OrderEvent>(
    {
      queues,
      deliver: (event) =>
        deliverOrderEvent(event, {
          tenant: (id) => routing.registry.tenants.find((t) => t.id === id),
          secret,
          now,
          timeoutMs: settings.timeoutMs,
        }),
      describe: describeOrderEvent,
      names: ORDER_WEBHOOK_NAMES,
      schedule: settings.schedule,
      metrics: deps.metrics.outbox(ORDER_WEBHOOK_QUEUE, combinedDepth(queues)),
      log: app.log.child({ component: 'order-webhooks' }),
      now,
    },
    // A lease outlives the longest attempt many times over; stopping waits for one attempt.
    {
      concurrency: settings.concurrency,
      pollMs: settings.pollMs,
      leaseMs: Math.max(60_000, 6 * settings.timeoutMs),
      drainMs: settings.timeoutMs + 1000,
    },
  );
  app.addHook('onReady', async () => worker.start());
  // preClose: claiming stops the moment closing starts, not after the HTTP server has drained.
  app.addHook('preClose', async () => worker.stop());

  const tenants = () => routing.registry.tenants;
  const polls = orderPollWorker({
    store,
    secret,
    now,
    tenants,
    log: app.log.child({ component: 'order-polls' }),
    metrics: deps.metrics.outbox(
      ORDER_POLL_QUEUE,
      combinedDepth(() => tenants().map((tenant) => orderPollQueue(store, tenant.id))),
    ),
    pollMs: deps.jobPollMs,
  });
  // Start-up never waits for the state store (an unreachable Redis must not stop it): the first
  // polls are queued in the background, again every minute until the store takes them.
  let retry: NodeJS.Timeout | undefined;
  const scheduleAll = () =>
    Promise.all(
      tenants()
        .filter(polled)
        .map((tenant) => schedulePoll(store, tenant, now())),
    ).catch((error: unknown) => {
      app.log.warn({ err: error }, 'order polls: cannot queue the first polls yet; retrying in a minute');
      retry = setTimeout(() => void scheduleAll(), 60_000).unref();
    });
  app.addHook('onReady', async () => {
    void scheduleAll();
    polls.start();
  });
  app.addHook('preClose', async () => {
    clearTimeout(retry);
    await polls.stop();
  });
  app.decorate('orderPolls', polls);
}

/** Through fastify-plugin: the workers' hooks and decorator are the app's. */
export const orderWebhooks = fp(addOrderWebhooks, { name: 'order-webhooks' });
