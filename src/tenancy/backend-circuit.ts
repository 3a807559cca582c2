/**
 * A tenant's circuit breaker (cockatiel): after `failures` attempts in a row (policies.backend) fail for
 * the store's reasons (a timeout, a retryable BackendError, an unexpected error), calls to that
 * store fail at once for `halfOpenAfterMs` instead of each waiting for its own deadline; then
 * one call is let through, and its success closes the circuit again. A store's final refusal
 * (a non-retryable BackendError: the request was wrong, the store answered) and a caller that
 * went away count as neither failure nor success.
 */
import { BrokenCircuitError, circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { BackendError, InvalidPageTokenError } from '../../adapters/contract.js';

export type CircuitName = 'closed' | 'open' | 'half_open' | 'isolated';

const NAMES: Record<CircuitState, CircuitName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half_open',
  [CircuitState.Isolated]: 'isolated',
};

/** The store's fault, as far as the gateway can tell. */
function storeFailure(error: Error): boolean {
  if (error instanceof InvalidPageTokenError || error.name === 'AbortError') return false;
  return !(error instanceof BackendError) || error.retryable;
}

/** What a call refused by an open circuit throws: retryable (503 with Retry-After), never retried in the call itself. */
export class CircuitOpenError extends BackendError {
  constructor(method: string, failures: number, retryAfterMs: number) {
    super(`backend ${method} not called: the store failed ${failures} times in a row, calls pause for a while`, true, retryAfterMs);
  }
}

export class BackendCircuit {
  private readonly policy: CircuitBreakerPolicy;
  private readonly failures: number;
  private readonly halfOpenAfterMs: number;
  /** Epoch ms of the last change of state (when it opened, when it closed). */
  changedAt?: number;

  constructor(options: { failures: number; halfOpenAfterMs: number }) {
    this.failures = options.failures;
    this.halfOpenAfterMs = options.halfOpenAfterMs;
    this.policy = circuitBreaker(handleWhen(storeFailure), {
      halfOpenAfter: this.halfOpenAfterMs,
      breaker: new ConsecutiveBreaker(this.failures),
    });
    this.policy.onStateChange(() => (this.changedAt = Date.now()));
  }

  get state(): CircuitName {
    return NAMES[this.policy.state];
  }

  /** Runs `fn` through the breaker; an open circuit throws CircuitOpenError without calling it. */
  async run<T>(method: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await this.policy.execute(fn);
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw new CircuitOpenError(method, this.failures, this.halfOpenAfterMs);
      throw error;
    }
  }
}
