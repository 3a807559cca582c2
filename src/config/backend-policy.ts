/**
 * How backend calls are bounded (tenant file `policies.backend`): applied by the resilient
 * wrapper around every adapter (tenancy/resilient-adapter.ts).
 */
export interface BackendPolicy {
  /** Deadline of one attempt. */
  timeoutMs: number;
  /** Attempts in all (1 = no retry) for calls that may be repeated. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultBackendPolicy: BackendPolicy = { timeoutMs: 8_000, attempts: 3, baseDelayMs: 100, maxDelayMs: 2_000 };
