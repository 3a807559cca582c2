/**
 * Which state-change notifications an answer calls for: one per part of the resource that
 * differs from what the host last heard (each carrying the full resource). Discounts change line
 * totals, so they travel as a line-items change; carts have no fulfillment or payment parts.
 */
import type { Kind } from './config.js';
import type { Resource } from './model.js';

const PARTS: Record<string, ReadonlyArray<keyof Resource>> = {
  line_items: ['line_items', 'discounts', 'totals'],
  buyer: ['buyer'],
  fulfillment: ['fulfillment'],
  payment: ['payment'],
  messages: ['messages'],
};
const CART_PARTS = new Set(['line_items', 'buyer', 'messages']);

export function changeNotifications(kind: Kind, before: Resource, after: Resource): string[] {
  return Object.entries(PARTS)
    .filter(([part]) => kind === 'checkout' || CART_PARTS.has(part))
    .filter(([, members]) => members.some((member) => JSON.stringify(before[member]) !== JSON.stringify(after[member])))
    .map(([part]) => `${part}.change`);
}
