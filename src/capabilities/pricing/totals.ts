/**
 * A quote's totals as protocol totals (spec part 1 §2.4, §4.4): discounts negative, charges
 * positive, `total` the store's own. Shipping and tax the store could not price yet are left
 * out rather than shown as 0, and `pending` says which, for the message that totals are partial.
 *
 * Tax the prices already contain (a store whose prices include tax, `includedTax`) is never an
 * entry of its own: upstream 2026-04-08 has the entries other than `total` sum to it, and a
 * platform that finds they do not must not complete. It is itemized as the `total` entry's
 * sub-lines instead (`lines`, which sum to their entry): the part before tax, then each included
 * tax with its title, so a platform shows "of which VAT" as the store does. Its `tax` entry
 * (nothing added) is left out then.
 */
import type { Quote } from '../../../adapters/contract.js';
import type { Message, Total, TotalLine } from '../../../schemas/common.js';
import { infoMessage } from '../../protocol/messages.js';

export type PendingTotal = 'fulfillment' | 'tax';

/** The `total` entry, with the tax the prices contain itemized under it. */
export function totalEntry(total: number, includedTax: number | undefined, taxLines: Quote['taxLines'] = []): Total {
  if (!includedTax) return { type: 'total', amount: total };
  const titled = taxLines.filter((t) => t.included);
  const named = titled.reduce((s, t) => s + t.amount, 0) === includedTax;
  const taxes: TotalLine[] = named
    ? titled.map((t) => ({ display_text: `${t.title} (included)`, amount: t.amount }))
    : [{ display_text: 'Tax (included)', amount: includedTax }];
  return { type: 'total', amount: total, lines: [{ display_text: 'Before tax', amount: total - includedTax }, ...taxes] };
}

/** The `tax` entry: none when the prices hold all the tax (nothing added), as for a checkout so for its order. */
export const taxEntry = (tax: number, includedTax: number | undefined): Total[] =>
  tax === 0 && (includedTax ?? 0) > 0 ? [] : [{ type: 'tax', amount: tax }];

export function renderTotals(quote: Quote): { totals: Total[]; pending: PendingTotal[] } {
  const { subtotal, itemsDiscount, discount, shipping, tax, includedTax, total } = quote.totals;
  const totals: Total[] = [
    { type: 'subtotal', amount: subtotal },
    ...(itemsDiscount > 0 ? [{ type: 'items_discount', amount: -itemsDiscount }] : []),
    ...(discount > 0 ? [{ type: 'discount', amount: -discount }] : []),
    ...(shipping !== null ? [{ type: 'fulfillment', amount: shipping }] : []),
    ...(tax !== null ? taxEntry(tax, includedTax) : []),
    totalEntry(total, tax === null ? undefined : includedTax, quote.taxLines),
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
