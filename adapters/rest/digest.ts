/**
 * `$digest(value)` for mappings: a short, stable fingerprint of any JSON value (SHA-256 of its
 * JSON text, 22 base64url characters), e.g. an Idempotency-Key per placement attempt:
 * `"order-" & reference & "-" & $digest([payment, expectedTotal])`. The same attempt retried gives
 * the same key; another card or total gives another. Not a secret: the store sees the inputs anyway.
 */
import { createHash } from 'node:crypto';

export const digest = (value: unknown): string =>
  createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('base64url')
    .slice(0, 22);
