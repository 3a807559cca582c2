/**
 * What the operator console shows of each tenant's backend beyond the Prometheus series: the
 * attempts of the last minutes (latency p50/p99 and error rate, overall and per minute, for the
 * small drawings) and the recent problems (store errors, refused webhooks, failed deliveries).
 * A problem keeps a code and a time only, never a store's or a platform's text, which may hold a
 * buyer's data. Memory is bounded per tenant: attempts of the window up to MAX_ATTEMPTS, the last
 * MAX_PROBLEMS problems.
 */
import type { FailureKind } from '../tenancy/resilient-adapter.js';

const WINDOW_MINUTES = 15;
const MINUTE_MS = 60_000;
const MAX_ATTEMPTS = 5000;
const MAX_PROBLEMS = 20;

export type ProblemKind = 'store_error' | 'webhook_refused' | 'delivery_failed';

interface Problem {
  kind: ProblemKind;
  /** A code of the gateway's own: a FailureKind with its method, a delivery outcome. */
  code: string;
  /** Epoch ms. */
  at: number;
}

interface Attempt {
  at: number;
  ms: number;
  ok: boolean;
}

export interface MinuteStats {
  calls: number;
  errors: number;
  p99Ms?: number;
}

export interface HealthSummary {
  calls: number;
  errorRate: number;
  p50Ms?: number;
  p99Ms?: number;
  /** Oldest minute first, WINDOW_MINUTES of them, the last one the current minute. */
  minutes: MinuteStats[];
  /** Newest first. */
  problems: Problem[];
  lastStoreError?: Problem;
}

function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

class TenantHealth {
  attempts: Attempt[] = [];
  readonly problems: Problem[] = [];

  trim(now: number): void {
    const from = now - WINDOW_MINUTES * MINUTE_MS;
    const first = this.attempts.findIndex((a) => a.at >= from);
    if (first !== 0) this.attempts = first < 0 ? [] : this.attempts.slice(first);
    if (this.attempts.length > MAX_ATTEMPTS) this.attempts = this.attempts.slice(-MAX_ATTEMPTS);
  }
}

export class BackendHealth {
  private readonly tenants = new Map<string, TenantHealth>();

  constructor(private readonly now: () => number = Date.now) {}

  private of(tenant: string): TenantHealth {
    let health = this.tenants.get(tenant);
    if (!health) this.tenants.set(tenant, (health = new TenantHealth()));
    return health;
  }

  attempt(tenant: string, call: { method: string; durationMs: number; failure?: FailureKind }): void {
    const at = this.now();
    const health = this.of(tenant);
    health.attempts.push({ at, ms: call.durationMs, ok: call.failure === undefined });
    if (health.attempts.length > 2 * MAX_ATTEMPTS) health.trim(at);
    if (call.failure) this.problem(tenant, 'store_error', `${call.method}: ${call.failure}`);
  }

  problem(tenant: string, kind: ProblemKind, code: string): void {
    const problems = this.of(tenant).problems;
    problems.unshift({ kind, code, at: this.now() });
    problems.length = Math.min(problems.length, MAX_PROBLEMS);
  }

  summary(tenant: string): HealthSummary {
    const now = this.now();
    const health = this.of(tenant);
    health.trim(now);
    const { attempts, problems } = health;
    const sorted = attempts.map((a) => a.ms).sort((a, b) => a - b);
    const currentMinute = Math.floor(now / MINUTE_MS);
    const minutes = Array.from({ length: WINDOW_MINUTES }, (_, i) => {
      const minute = currentMinute - (WINDOW_MINUTES - 1 - i);
      const inMinute = attempts.filter((a) => Math.floor(a.at / MINUTE_MS) === minute);
      const p99Ms = percentile(
        inMinute.map((a) => a.ms).sort((a, b) => a - b),
        99,
      );
      return { calls: inMinute.length, errors: inMinute.filter((a) => !a.ok).length, ...(p99Ms !== undefined && { p99Ms }) };
    });
    const errors = attempts.filter((a) => !a.ok).length;
    const p50Ms = percentile(sorted, 50);
    const p99Ms = percentile(sorted, 99);
    const lastStoreError = problems.find((p) => p.kind === 'store_error');
    return {
      calls: attempts.length,
      errorRate: attempts.length ? errors / attempts.length : 0,
      ...(p50Ms !== undefined && { p50Ms }),
      ...(p99Ms !== undefined && { p99Ms }),
      minutes,
      problems: [...problems],
      ...(lastStoreError && { lastStoreError }),
    };
  }
}
