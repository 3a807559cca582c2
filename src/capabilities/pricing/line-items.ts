/**
 * A quote's priced lines as protocol line items (spec part 1 §2.5), each with its own totals:
 * subtotal, the discounts allocated to it (`items_discount`, negative) and what is left.
 */
import type { Quote, QuotedLine } from '../../../adapters/contract.js';
import type { Total } from '../../../schemas/common.js';
import type { LineItem } from '../../../schemas/line-item.js';

/** Discount allocated to each line, by line id (the lines' `items_discount`). */
function lineDiscounts(quote: Quote): Map<string, number> {
  const byLine = new Map<string, number>();
  for (const discount of quote.discounts.applied) {
    for (const { target, amount } of discount.allocations) {
      if (target.kind === 'line') byLine.set(target.lineId, (byLine.get(target.lineId) ?? 0) + amount);
    }
  }
  return byLine;
}

const itemTitle = (line: QuotedLine) => (line.variantTitle ? `${line.title} - ${line.variantTitle}` : line.title);

export function renderLineItems(quote: Quote): LineItem[] {
  const discounts = lineDiscounts(quote);
  return quote.lines.map((line) => {
    const discount = discounts.get(line.lineId) ?? 0;
    const totals: Total[] = [
      { type: 'subtotal', amount: line.subtotal },
      ...(discount > 0 ? [{ type: 'items_discount', amount: -discount }] : []),
      { type: 'total', amount: line.subtotal - discount },
    ];
    return {
      id: line.lineId,
      item: { id: line.variantId, title: itemTitle(line), price: line.unitPrice, ...(line.imageUrl && { image_url: line.imageUrl }) },
      quantity: line.quantity,
      totals,
    };
  });
}

/** `$.line_items[k]` of each rendered line, by line id (for allocation paths). */
export function lineItemPaths(lineItems: readonly LineItem[]): Map<string, string> {
  return new Map(lineItems.map((line, k) => [line.id, `$.line_items[${k}]`]));
}
