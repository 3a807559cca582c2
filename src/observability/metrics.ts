/**
 * Every Prometheus metric of the gateway, in one per-app registry (tests build many apps in one
 * process). Domain code never imports prom-client: it reports through small observer hooks
 * (BackendObserver, the pipeline's idempotency observer) that this module implements.
 * Labels are bounded: tenant ids come from configuration, operations from the operation table
 * or the route pattern, and a request that matched no route is `operation="unknown"`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { IdempotencyEvent } from '../pipeline/pipeline.js';
import type { OutboxMetrics, QueueMetrics } from '../state/queue-worker.js';
import type { DurableQueue } from '../state/store.js';
import type { BackendObserver } from '../tenancy/resilient-adapter.js';
import type { Tenant } from '../tenancy/tenant.js';
import { BackendHealth } from './backend-health.js';
import { LatencyHistogram, LatencySeries, PlainCounter, RequestSeries } from './request-series.js';

const CIRCUIT_VALUES = { closed: 0, half_open: 1, open: 2, isolated: 2 } as const;

/** The last configuration reload, for the console. */
export interface ReloadState {
  outcome: 'ok' | 'failed';
  /** Epoch ms. */
  at: number;
  /** Why a failed reload was refused (the configuration error, which names files and settings, never secrets). */
  reason?: string;
}

/** A tenant's requests, counted since the process started. */
export interface TenantTraffic {
  byTransport: Record<string, number>;
  rateLimited: number;
}

/** Seconds; from a cached read to a slow backend behind retries. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What the profile cache exposes (ProfileFetcher keeps running counts). */
export interface CacheCounts {
  hits: number;
  misses: number;
}

/** Each tenant's circuit state, read on every scrape from the tenants serving now. */
function circuitGauge(registers: Registry[], tenants: () => readonly Tenant[]): void {
  new Gauge({
    name: 'proto_backend_circuit_state',
    help: "A tenant's backend circuit breaker: 0 closed (calls go through), 1 half-open (one trial call), 2 open (calls refused).",
    labelNames: ['tenant', 'adapter'],
    registers,
    collect() {
      this.reset();
      for (const tenant of tenants())
        this.set({ tenant: tenant.id, adapter: tenant.config.adapter.type }, CIRCUIT_VALUES[tenant.circuit.state]);
    },
  });
}

export class Metrics implements QueueMetrics {
  readonly registry = new Registry();
  private readonly requests: RequestSeries;
  private readonly backendSeconds = new LatencySeries<'tenant' | 'adapter' | 'method' | 'outcome'>(LATENCY_BUCKETS);
  private readonly backendErrors: PlainCounter<'tenant' | 'adapter' | 'method' | 'kind'>;
  private readonly webhooksRefused: Counter<'tenant'>;
  private readonly deliverySeconds: Histogram<'queue' | 'outcome'>;
  private tenants: () => readonly Tenant[] = () => [];
  /** Recent attempts and problems per tenant (the console's). */
  readonly health: BackendHealth;
  lastReload?: ReloadState;
  private readonly idempotencyOutcomes: PlainCounter<'tenant' | 'operation' | 'outcome'>;
  private readonly limited: Counter<'tenant' | 'scope'>;
  private readonly limiterErrors: Counter;
  private readonly reloads: Counter<'outcome'>;
  private readonly outboxAttempts: Counter<'queue' | 'outcome'>;
  private readonly profileCaches: CacheCounts[] = [];
  private readonly outboxQueues = new Map<string, Pick<DurableQueue<unknown>, 'depth'>>();

  constructor(now: () => number = Date.now) {
    this.health = new BackendHealth(now);
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new RequestSeries(this.registry, LATENCY_BUCKETS);
    // Counted plainly (request-series.ts): observed on every adapter call.
    new LatencyHistogram(this.backendSeconds, LATENCY_BUCKETS, {
      name: 'proto_backend_call_duration_seconds',
      help: 'One attempt of a call to a merchant backend (adapter), by outcome: ok, error or timeout.',
      labelNames: ['tenant', 'adapter', 'method', 'outcome'],
      registers,
    });
    this.backendErrors = new PlainCounter({
      name: 'proto_backend_errors_total',
      help: 'Failed attempts of calls to a merchant backend, by kind: timeout, unavailable, refused, invalid_answer, unexpected.',
      labelNames: ['tenant', 'adapter', 'method', 'kind'],
      registers,
    });
    circuitGauge(registers, () => this.tenants());
    this.webhooksRefused = new Counter({
      name: 'proto_backend_webhooks_refused_total',
      help: "Webhooks from a merchant's store refused because they did not verify with the store's webhook secret.",
      labelNames: ['tenant'],
      registers,
    });
    this.deliverySeconds = new Histogram({
      name: 'proto_outbox_delivery_duration_seconds',
      help: 'One outbox delivery attempt (an order webhook to a platform), by outcome: delivered, retried or dead_lettered.',
      labelNames: ['queue', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.idempotencyOutcomes = new PlainCounter({
      name: 'proto_idempotency_requests_total',
      help:
        'Requests carrying an idempotency key: executed, replayed, conflict (key reused with another request) ' +
        'or in_progress (gave up waiting for the first).',
      labelNames: ['tenant', 'operation', 'outcome'],
      registers,
    });
    this.limited = new Counter({
      name: 'proto_rate_limited_total',
      help: 'Requests refused with 429, by the limit that refused them (caller or tenant).',
      labelNames: ['tenant', 'scope'],
      registers,
    });
    this.limiterErrors = new Counter({
      name: 'proto_rate_limiter_errors_total',
      help: 'Requests let through unlimited because the rate-limit counters could not be reached (fail open).',
      registers,
    });
    this.reloads = new Counter({
      name: 'proto_config_reloads_total',
      help: 'Tenant configuration reloads: ok, or failed (the previous configuration kept serving).',
      labelNames: ['outcome'],
      registers,
    });
    const caches = this.profileCaches;
    new Counter({
      name: 'proto_profile_cache_lookups_total',
      help: 'Platform profile lookups during negotiation: hit (served from cache) or miss (fetched).',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        this.inc(
          { result: 'hit' },
          caches.reduce((sum, c) => sum + c.hits, 0),
        );
        this.inc(
          { result: 'miss' },
          caches.reduce((sum, c) => sum + c.misses, 0),
        );
      },
    });
    const queues = this.outboxQueues;
    new Gauge({
      name: 'proto_outbox_jobs',
      help: 'Jobs in an outbox queue (shared by every replica): queued (waiting, leased or retrying) or dead (dead-lettered).',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        await Promise.all(
          [...queues].map(async ([queue, source]) => {
            // An unreachable store leaves the queue out of this scrape rather than failing it.
            const depth = await source.depth().catch(() => undefined);
            if (!depth) return;
            this.set({ queue, state: 'queued' }, depth.queued);
            this.set({ queue, state: 'dead' }, depth.dead);
          }),
        );
      },
    });
    this.outboxAttempts = new Counter({
      name: 'proto_outbox_delivery_attempts_total',
      help: 'Outbox delivery attempts: delivered, retried (failed, scheduled again) or dead_lettered (given up).',
      labelNames: ['queue', 'outcome'],
      registers,
    });
  }

  /** Called once per response (the server's onResponse hook). */
  observeRequest(req: FastifyRequest, reply: FastifyReply): void {
    const tenant = req.tenant?.id ?? 'none';
    const operation = req.operation || (req.routeOptions.url ?? 'unknown');
    const transport = req.transport || 'http';
    this.requests.observe(tenant, operation, transport, reply.statusCode, reply.elapsedTime / 1000);
  }

  /** The observer a tenant's resilient adapter reports each backend attempt to. */
  backendObserver(tenant: string, adapter: string): BackendObserver {
    return (call) => {
      const { method, durationMs, outcome, failure } = call;
      this.backendSeconds.observe(`${tenant}\n${adapter}\n${method}\n${outcome}`, { tenant, adapter, method, outcome }, durationMs / 1000);
      if (failure) this.backendErrors.add(`${tenant}\n${adapter}\n${method}\n${failure}`, { tenant, adapter, method, kind: failure });
      this.health.attempt(tenant, call);
    };
  }

  /** The tenants whose circuits each scrape reads (the routing's registry, swapped by reloads). */
  watchTenants(tenants: () => readonly Tenant[]): void {
    this.tenants = tenants;
  }

  webhookRefused(tenant: string): void {
    this.webhooksRefused.inc({ tenant });
    this.health.problem(tenant, 'webhook_refused', 'webhook_unverified');
  }

  /** Requests by transport and rate-limit refusals of one tenant, read from the registry's series. */
  async traffic(tenant: string): Promise<TenantTraffic> {
    const sum = async (name: string, key: string) => {
      const totals: Record<string, number> = {};
      const metric = await this.registry.getSingleMetric(name)?.get();
      for (const { labels, value } of metric?.values ?? []) {
        if (labels.tenant !== tenant) continue;
        const label = String(labels[key] ?? '');
        totals[label] = (totals[label] ?? 0) + value;
      }
      return totals;
    };
    const limited = Object.values(await sum('proto_rate_limited_total', 'scope')).reduce((a, b) => a + b, 0);
    return { byTransport: await sum('proto_requests_total', 'transport'), rateLimited: limited };
  }

  idempotency = (event: IdempotencyEvent): void => {
    const { tenant, operation, outcome } = event;
    this.idempotencyOutcomes.add(`${tenant}\n${operation}\n${outcome}`, { tenant, operation, outcome });
  };

  rateLimited(tenant: string, scope: 'caller' | 'tenant'): void {
    this.limited.inc({ tenant, scope });
  }

  rateLimiterFailed(): void {
    this.limiterErrors.inc();
  }

  configReload(outcome: 'ok' | 'failed', reason?: string): void {
    this.reloads.inc({ outcome });
    this.lastReload = { outcome, at: Date.now(), ...(reason !== undefined && { reason }) };
  }

  /** Counts of a profile cache, read on every scrape. */
  profileCache(counts: CacheCounts): void {
    this.profileCaches.push(counts);
  }

  /**
   * Registers an outbox queue: its depth is read on every scrape, and the returned recorder
   * counts delivery attempts. Every replica reports the same shared depth: aggregate with max().
   */
  outbox(queue: string, source: Pick<DurableQueue<unknown>, 'depth'>): OutboxMetrics {
    this.outboxQueues.set(queue, source);
    // Every outcome from zero, so the first dead letter is an increase (the DeadLettersGrowing alert), not a new series.
    for (const outcome of ['delivered', 'retried', 'dead_lettered'] as const) {
      this.outboxAttempts.inc({ queue, outcome }, 0);
      this.deliverySeconds.zero({ queue, outcome });
    }
    return {
      attempt: (outcome, facts) => {
        this.outboxAttempts.inc({ queue, outcome });
        if (!facts) return;
        this.deliverySeconds.observe({ queue, outcome }, facts.seconds);
        if (outcome !== 'delivered' && facts.tenant) this.health.problem(facts.tenant, 'delivery_failed', `${queue}: ${outcome}`);
      },
    };
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
