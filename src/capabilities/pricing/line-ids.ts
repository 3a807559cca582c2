/**
 * Line ids belong to the gateway: random (unguessable, never reused) and stable across updates,
 * so a platform can follow a line from one response to the next.
 *
 * A requested line keeps the id it names when the cart has that line (each id once); a line
 * without an id, or naming one the cart does not have, takes the id of an unclaimed existing
 * line with the same item; anything else gets a new id (protocol/stable-ids.ts, the rule the
 * fulfillment extension's method ids follow too, matching by method type instead of item).
 */
import { randomId } from '../../security/random-id.js';
import type { Quote } from '../../../adapters/contract.js';
import type { LineItemRequest } from '../../../schemas/line-item.js';
import { assignIds } from '../../protocol/stable-ids.js';
import type { PricedLineInput } from './quote-request.js';

export const newLineId = () => randomId('li_');

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
  // A new cart or checkout has no id to keep or match: every line gets a fresh one (what assignIds would give).
  if (existing.length === 0) return requested.map(() => newLineId());
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
