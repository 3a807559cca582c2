/**
 * Line ids belong to the gateway: random (unguessable, never reused) and stable across updates,
 * so a platform can follow a line from one response to the next.
 *
 * A requested line keeps the id it names when the cart has that line (each id once); a line
 * without an id, or naming one the cart does not have, takes the id of an unclaimed existing
 * line with the same item; anything else gets a new id. Checkout assigns its fulfillment method
 * ids by the same rule (`assignIds`), matching by method type instead of item.
 */
import { randomId } from '../../security/random-id.js';
import type { Quote } from '../../../adapters/contract.js';
import type { LineItemRequest } from '../../../schemas/line-item.js';
import type { PricedLineInput } from './quote-request.js';

export const newLineId = () => randomId('li_');

/** Something that has an id and a key it can be recognized by without one (a line's item). */
export interface Keyed {
  id: string;
  key: string;
}

export interface Requested {
  id?: string | undefined;
  key: string;
}

/**
 * One id per requested entry, in request order. `fresh` makes a new id for a key; it is told
 * every id already in use, so it never repeats one.
 */
export function assignIds(requested: readonly Requested[], existing: readonly Keyed[], fresh: (key: string, used: ReadonlySet<string>) => string): string[] {
  const known = new Set(existing.map((entry) => entry.id));
  const claimed = new Set<string>();
  // Named ids first, so an entry matched by key never takes an id another entry (even a later one) names.
  const named = requested.map((entry) => {
    if (entry.id === undefined || !known.has(entry.id) || claimed.has(entry.id)) return undefined;
    claimed.add(entry.id);
    return entry.id;
  });
  return named.map((id, i) => {
    if (id !== undefined) return id;
    const key = requested[i]!.key;
    const assigned = existing.find((entry) => entry.key === key && !claimed.has(entry.id))?.id ?? fresh(key, new Set([...known, ...claimed]));
    claimed.add(assigned);
    return assigned;
  });
}

export interface ExistingLine {
  id: string;
  itemId: string;
}

export interface RequestedLine {
  id?: string | undefined;
  item: { id: string };
}

/** One id per requested line, in request order. */
export function assignLineIds(requested: readonly RequestedLine[], existing: readonly ExistingLine[]): string[] {
  return assignIds(
    requested.map((line) => ({ id: line.id, key: line.item.id })),
    existing.map((line) => ({ id: line.id, key: line.itemId })),
    newLineId,
  );
}

/** Request lines with their ids, ready to price (an absent quantity is 1). */
export function identifyLines(requested: readonly LineItemRequest[], existing: readonly ExistingLine[]): PricedLineInput[] {
  const ids = assignLineIds(requested, existing);
  return requested.map((line, i) => ({ id: ids[i]!, itemId: line.item.id, quantity: line.quantity ?? 1 }));
}

/** Only the lines the store priced (unknown, zero-quantity and sold-out ones go). */
export function keepPricedLines<T extends { lines: readonly PricedLineInput[] }>(session: T, quote: Quote): T {
  const priced = new Set(quote.lines.map((line) => line.lineId));
  return { ...session, lines: session.lines.filter((line) => priced.has(line.id)) };
}
