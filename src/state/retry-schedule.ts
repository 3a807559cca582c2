/**
 * When a failed webhook delivery is tried again: exponential backoff with jitter, so platforms
 * recovering from an outage are not hit by every replica's retries at once. The default spans
 * about 24 hours: 11 attempts, the waits between them 20 s x 3^n capped at 6 h
 * (20 s, 1 min, 3 min, 9 min, 27 min, 81 min, ~4 h, 6 h, 6 h, 6 h: 24.1 h in all), each
 * stretched or shrunk by up to 20 %.
 */

export interface RetrySchedule {
  /** Deliveries in all, the first included; the last failure dead-letters the event. */
  maxAttempts: number;
  /** Wait before the next attempt, after `failed` failed deliveries (1 = the first failed). */
  delayMs(failed: number): number;
}

export interface BackoffOptions {
  firstDelayMs: number;
  factor: number;
  maxDelayMs: number;
  maxAttempts: number;
  /** Fraction each wait varies by, both ways. */
  jitter: number;
  /** [0, 1); Math.random by default. */
  random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { firstDelayMs: 20_000, factor: 3, maxDelayMs: 6 * 3_600_000, maxAttempts: 11, jitter: 0.2 };

export function backoffSchedule(options: BackoffOptions = DEFAULT_BACKOFF): RetrySchedule {
  const random = options.random ?? Math.random;
  return {
    maxAttempts: options.maxAttempts,
    delayMs(failed) {
      const nominal = Math.min(options.maxDelayMs, options.firstDelayMs * options.factor ** (failed - 1));
      return Math.round(nominal * (1 + options.jitter * (2 * random() - 1)));
    },
  };
}
