/**
 * The search cursor: where the next page starts (the adapter's page token and how many of that
 * page's products were already served), bound to a hash of the tenant and the normalized query,
 * and HMAC-signed with a key derived from the gateway secret. A cursor that was altered, forged,
 * or issued for another query or tenant is refused with 400 invalid_cursor, never misread.
 * Format: base64url(JSON state) "." base64url(HMAC-SHA256).
 */
import { createHash, type KeyObject } from 'node:crypto';
import { ProtocolError } from '../../protocol/errors.js';
import { hmacSha256 } from '../../../adapters/kit/hmac-sha256.js';
import { signatureMatches } from '../../../adapters/kit/hmac.js';

export interface CursorState {
  /** The adapter's token of the page to read; absent = its first page. */
  pageToken?: string;
  /** Products of that page (after the gateway's own filters) already served. */
  skip: number;
}

interface Payload {
  /** Query binding. */
  b: string;
  t?: string;
  s: number;
}

export const CURSOR_KEY_PURPOSE = 'catalog-cursor';

/** Hash of what a cursor may be used with: the tenant and the normalized query. */
export function queryBinding(tenantId: string, query: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([tenantId, query]))
    .digest('base64url')
    .slice(0, 22);
}

export function writeCursor(key: KeyObject, binding: string, state: CursorState): string {
  const payload: Payload = { b: binding, ...(state.pageToken !== undefined && { t: state.pageToken }), s: state.skip };
  const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${data}.${hmacSha256(key, data).toString('base64url')}`;
}

const invalid = (why: string) => new ProtocolError('invalid_cursor', `$.pagination.cursor ${why}`);

function isPayload(value: unknown): value is Payload {
  if (value === null || typeof value !== 'object') return false;
  const p = value as Record<string, unknown>;
  return typeof p.b === 'string' && (p.t === undefined || typeof p.t === 'string') && Number.isSafeInteger(p.s) && (p.s as number) >= 0;
}

export function readCursor(key: KeyObject, binding: string, cursor: string): CursorState {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(cursor);
  // Compared as text: decoding ignores the last character's spare bits, so comparing decoded bytes
  // would accept a second spelling of one cursor.
  const signature = match ? Buffer.from(match[2]!) : undefined;
  const expected = match ? Buffer.from(hmacSha256(key, match[1]!).toString('base64url')) : undefined;
  if (!signature || !expected || !signatureMatches(signature, expected)) {
    throw invalid('is not a cursor this gateway issued (altered, truncated or from elsewhere); start again without a cursor');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(match![1]!, 'base64url').toString('utf8'));
  } catch {
    payload = undefined;
  }
  if (!isPayload(payload)) throw invalid('is not a cursor this gateway issued; start again without a cursor');
  if (payload.b !== binding) {
    throw invalid('belongs to another search: send the same query, filters, context.currency and limit as the request that returned it');
  }
  return { ...(payload.t !== undefined && { pageToken: payload.t }), skip: payload.s };
}
