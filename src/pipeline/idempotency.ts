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

type DoneRecord = { state: 'done'; fingerprint: string } & StoredResponse;
type IdempotencyRecord = { state: 'pending'; fingerprint: string } | DoneRecord;

/**
 * A finished record is stored as text: its other fields as one JSON line, then the answer's
 * bytes as they are, which JSON would escape again (every quote of a 2-4 KB answer) only to
 * unescape them for a replay. A pending reservation is plain JSON and has no line break; so had
 * a finished record of a gateway before this format, its answer inside the JSON.
 */
function encodeDone(fingerprint: string, { status, outcome, body }: StoredResponse): string {
  // Named, not spread into a record and picked apart again (two copies and tsc's __rest loop per keyed call).
  const fields: Omit<DoneRecord, 'body'> = { state: 'done', fingerprint, status, outcome };
  return `${JSON.stringify(fields)}\n${body}`;
}

function decodeRecord(text: string): IdempotencyRecord {
  const lineEnd = text.indexOf('\n');
  if (lineEnd < 0) return JSON.parse(text) as IdempotencyRecord;
  const fields = JSON.parse(text.slice(0, lineEnd)) as Omit<DoneRecord, 'body'>;
  return { ...fields, body: text.slice(lineEnd + 1) };
}

export interface IdempotencyOptions {
  /** How long an unfinished reservation blocks the key (a crashed replica's key frees itself). */
  pendingTtlMs: number;
  /** How long a concurrent duplicate waits for the first request's result. */
  waitMs: number;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new ProtocolError('invalid_idempotency_key', 'Idempotency-Key must be 1-255 visible ASCII characters');
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
      const stored = await this.store.getText(key);
      if (!stored) continue; // expired between the two calls: try to reserve again
      const existing = decodeRecord(stored.value);
      if (existing.fingerprint !== requestFingerprint) {
        observe('conflict');
        throw new ProtocolError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request');
      }
      if (existing.state === 'done') {
        const { status, body, outcome } = existing;
        observe('replayed');
        return { response: { status, body, outcome }, replayed: true };
      }
      if (Date.now() >= deadline) {
        observe('in_progress');
        throw new ProtocolError(
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
    await this.store.setText(key, encodeDone(requestFingerprint, response), retentionMs);
    return response;
  }
}
