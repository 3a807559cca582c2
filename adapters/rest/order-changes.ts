/**
 * The polled order changes as the contract wants them (`ordersChangedSince`: inclusive, oldest
 * first, each order once) from a store whose "since" may be exclusive and whose pages may shift
 * while they are read (an order changing during the poll shows on two pages).
 */
import type { OrderChange } from '../contract.js';

export type SinceBound = 'inclusive' | 'exclusive';

/**
 * What to send as the store's `since`: the cursor itself for an inclusive store; a millisecond
 * earlier for an exclusive one, so a change at exactly the cursor (the last poll's newest, or one
 * made in the same millisecond after it) is not missed.
 */
export function storeSince(sinceIso: string, bound: SinceBound): string {
  const at = Date.parse(sinceIso);
  return bound === 'exclusive' && !Number.isNaN(at) ? new Date(at - 1).toISOString() : sinceIso;
}

/**
 * Each order once, at its latest change, oldest first; a change before the cursor (a store that
 * rounds `since` down) was the last poll's. Entries that are not changes stay, for the shape check.
 */
export function settleChanges(changes: OrderChange[], sinceIso: string): OrderChange[] {
  const since = Date.parse(sinceIso);
  const latest = new Map<unknown, OrderChange>();
  const odd: OrderChange[] = [];
  for (const change of changes) {
    const at = typeof change === 'object' && change !== null ? Date.parse(change.updatedAt) : NaN;
    if (Number.isNaN(at) || typeof change.orderId !== 'string') {
      odd.push(change);
      continue;
    }
    if (at < since) continue;
    const seen = latest.get(change.orderId);
    if (!seen || Date.parse(seen.updatedAt) < at) latest.set(change.orderId, change);
  }
  return [...odd, ...[...latest.values()].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt))];
}
