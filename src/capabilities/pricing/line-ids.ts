/**
 * Line ids belong to the gateway: random (unguessable, never reused) and stable across updates,
 * so a platform can follow a line from one response to the next.
 *
 * A requested line keeps the id it names when the cart has that line (each id once); a line
 * without an id, or naming one the cart does not have, takes the id of an unclaimed existing
 * line with the same item; anything else gets a new id.
 */
import { randomBytes } from 'node:crypto';
import type { LineItemRequest } from '../../../schemas/line-item.js';
import type { PricedLineInput } from './quote-request.js';

export const newLineId = () => `li_${randomBytes(16).toString('base64url')}`;

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
  const known = new Set(existing.map((line) => line.id));
  const claimed = new Set<string>();
  // Named ids first, so a line matched by item never takes an id another line (even a later one) names.
  const named = requested.map((line) => {
    if (line.id === undefined || !known.has(line.id) || claimed.has(line.id)) return undefined;
    claimed.add(line.id);
    return line.id;
  });
  return named.map((id, i) => {
    if (id !== undefined) return id;
    const itemId = requested[i]!.item.id;
    const assigned = existing.find((line) => line.itemId === itemId && !claimed.has(line.id))?.id ?? newLineId();
    claimed.add(assigned);
    return assigned;
  });
}

/** Request lines with their ids, ready to price (an absent quantity is 1). */
export function identifyLines(requested: readonly LineItemRequest[], existing: readonly ExistingLine[]): PricedLineInput[] {
  const ids = assignLineIds(requested, existing);
  return requested.map((line, i) => ({ id: ids[i]!, itemId: line.item.id, quantity: line.quantity ?? 1 }));
}
