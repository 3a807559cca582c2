/**
 * Failures on demand: the next N calls to an API answer with a status (429 + Retry-After, 430,
 * 5xx), Shopify's Admin cost throttle (HTTP 200 with errors[].extensions.code = "THROTTLED"),
 * garbage, a reset connection, or no answer at all. `lost` runs the call (a mutation is committed)
 * and then drops the connection before answering: what a timeout or a network cut after Shopify
 * processed the request looks like to the caller, who cannot tell it from a call never made.
 */
export type Fault =
  | { type: 'status'; status: number; retryAfterSeconds?: number }
  | { type: 'throttle' }
  | { type: 'garbage' }
  | { type: 'reset' }
  | { type: 'hang' }
  | { type: 'lost' };

export type FaultTarget = 'admin' | 'storefront' | 'any';

export class Faults {
  private queue: Array<{ target: FaultTarget; fault: Fault; left: number }> = [];

  /** The next `times` calls to `target` fail with `fault`. */
  inject(fault: Fault, options: { target?: FaultTarget; times?: number } = {}): void {
    this.queue.push({ target: options.target ?? 'any', fault, left: options.times ?? 1 });
  }

  clear(): void {
    this.queue = [];
  }

  /** The fault for this call, if one is pending for its API. */
  take(api: 'admin' | 'storefront'): Fault | undefined {
    const entry = this.queue.find((e) => e.target === 'any' || e.target === api);
    if (!entry) return undefined;
    if (--entry.left === 0) this.queue.splice(this.queue.indexOf(entry), 1);
    return entry.fault;
  }
}
