/**
 * Idempotency for state-changing operations (spec part 1 §5): the key and a fingerprint of
 * the request are reserved atomically in the state store; a repeat with the same request gets
 * the stored response byte for byte, a different request gets 409, and a concurrent duplicate
 * waits for the first to finish instead of executing twice. A store failure propagates
 * (StoreUnavailableError), so the request fails closed with 503.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError } from '../protocol/errors.js';
import type { StateStore } from '../state/store.js';

export interface StoredResponse {
  status: number;
  body: string;
  outcome: 'success' | 'error';
}

/** What became of a keyed request: run for the first time, answered from the record, or refused with 409. */
export type IdempotencyOutcome = 'executed' | 'replayed' | 'conflict' | 'in_progress';

type IdempotencyRecord = { state: 'pending'; fingerprint: string } | ({ state: 'done'; fingerprint: string } & StoredResponse);

export interface IdempotencyOptions {
  /** How long an unfinished reservation blocks the key (a crashed replica's key frees itself). */
  pendingTtlMs: number;
  /** How long a concurrent duplicate waits for the first request's result. */
  waitMs: number;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new ProtocolError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1-255 visible ASCII characters');
  }
}

export class Idempotency {
  constructor(
    private readonly store: StateStore,
    private readonly options: IdempotencyOptions = { pendingTtlMs: 120_000, waitMs: 15_000 },
  ) {}

  async run(
    key: string,
    requestFingerprint: string,
    retentionMs: number,
    execute: () => Promise<StoredResponse>,
    observe: (outcome: IdempotencyOutcome) => void = () => undefined,
  ): Promise<{ response: StoredResponse; replayed: boolean }> {
    const deadline = Date.now() + this.options.waitMs;
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      const pending: IdempotencyRecord = { state: 'pending', fingerprint: requestFingerprint };
      if (await this.store.setIfAbsent(key, pending, this.options.pendingTtlMs)) {
        observe('executed');
        return { response: await this.execute(key, requestFingerprint, retentionMs, execute), replayed: false };
      }
      const existing = await this.store.get<IdempotencyRecord>(key);
      if (!existing) continue; // expired between the two calls: try to reserve again
      if (existing.value.fingerprint !== requestFingerprint) {
        observe('conflict');
        throw new ProtocolError(409, 'idempotency_key_reused', 'this Idempotency-Key was already used with a different request');
      }
      if (existing.value.state === 'done') {
        const { status, body, outcome } = existing.value;
        observe('replayed');
        return { response: { status, body, outcome }, replayed: true };
      }
      if (Date.now() >= deadline) {
        observe('in_progress');
        throw new ProtocolError(
          409,
          'idempotency_request_in_progress',
          'a request with this Idempotency-Key is still being processed; retry shortly',
          {
            retryAfterSeconds: 1,
          },
        );
      }
      await sleep(delay);
    }
  }

  private async execute(key: string, requestFingerprint: string, retentionMs: number, execute: () => Promise<StoredResponse>) {
    let response: StoredResponse;
    try {
      response = await execute();
    } catch (error) {
      // Nothing was stored: free the key so the client may retry.
      await this.store.delete(key).catch(() => undefined);
      throw error;
    }
    const done: IdempotencyRecord = { state: 'done', fingerprint: requestFingerprint, ...response };
    await this.store.set(key, done, retentionMs);
    return response;
  }
}
