/**
 * A quote's totals as protocol totals (spec part 1 §2.4, §4.4): discounts negative, charges
 * positive, `total` the store's own. Shipping and tax the store could not price yet are left
 * out rather than shown as 0, and `pending` says which, for the message that totals are partial.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Message, Total } from '../../../schemas/common.js';
import { infoMessage } from '../../protocol/messages.js';

export type PendingTotal = 'fulfillment' | 'tax';

export function renderTotals(quote: Quote): { totals: Total[]; pending: PendingTotal[] } {
  const { subtotal, itemsDiscount, discount, shipping, tax, total } = quote.totals;
  const totals: Total[] = [
    { type: 'subtotal', amount: subtotal },
    ...(itemsDiscount > 0 ? [{ type: 'items_discount', amount: -itemsDiscount }] : []),
    ...(discount > 0 ? [{ type: 'discount', amount: -discount }] : []),
    ...(shipping !== null ? [{ type: 'fulfillment', amount: shipping }] : []),
    ...(tax !== null ? [{ type: 'tax', amount: tax }] : []),
    { type: 'total', amount: total },
  ];
  const pending: PendingTotal[] = [...(shipping === null ? ['fulfillment' as const] : []), ...(tax === null ? ['tax' as const] : [])];
  return { totals, pending };
}

const WHY: Record<PendingTotal, string> = {
  fulfillment: 'shipping is priced at checkout once a delivery option is chosen',
  tax: "tax needs the buyer's country and region (context.address_country, context.address_region)",
};

/** Says that `totals` are estimates and what they leave out. */
export function partialTotalsMessage(pending: readonly PendingTotal[]): Message {
  const reasons = pending.map((p) => WHY[p]).join('; ');
  return infoMessage('estimated_totals', `Totals are estimates and leave out what cannot be priced yet: ${reasons}.`, '$.totals');
}
