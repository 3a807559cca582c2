/**
 * The checkout's line ids on the lines of its order, for stores that keep only their own line
 * ids and SKUs (no line item property or meta holding the gateway's id): the gateway knows which
 * variant and SKU each checkout line was, from the checkout (kept with the order record), and
 * gives every store line without a `checkoutLineId` the checkout line it matches: the same
 * variant, else the same SKU, each checkout line used once, in order. A store line matching none
 * keeps the store's id.
 */
import type { OrderSnapshot, QuotedLine } from '../../../adapters/contract.js';

/** A checkout line as the order needs it: its id and what the store knows it by. */
export interface CheckoutLineRef {
  id: string;
  variantId: string;
  sku?: string;
}

export const checkoutLineRefs = (lines: readonly Pick<QuotedLine, 'lineId' | 'variantId' | 'sku'>[]): CheckoutLineRef[] =>
  lines.map((l) => ({ id: l.lineId, variantId: l.variantId, ...(l.sku && { sku: l.sku }) }));

export function withCheckoutLineIds(order: OrderSnapshot, refs: readonly CheckoutLineRef[] | undefined): OrderSnapshot {
  if (!refs?.length || order.lines.every((l) => l.checkoutLineId !== undefined)) return order;
  const taken = new Set(order.lines.flatMap((l) => (l.checkoutLineId === undefined ? [] : [l.checkoutLineId])));
  const claim = (match: (ref: CheckoutLineRef) => boolean) => {
    const ref = refs.find((r) => !taken.has(r.id) && match(r));
    if (ref) taken.add(ref.id);
    return ref?.id;
  };
  const lines = order.lines.map((line) => {
    if (line.checkoutLineId !== undefined) return line;
    const sku = line.sku?.toLowerCase();
    const id = claim((r) => r.variantId === line.variantId) ?? (sku === undefined ? undefined : claim((r) => r.sku?.toLowerCase() === sku));
    return id === undefined || id === line.id ? line : { ...line, checkoutLineId: id };
  });
  return { ...order, lines };
}
