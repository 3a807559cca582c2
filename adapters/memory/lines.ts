/**
 * Prices the requested lines and reports what cannot be bought as requested. Stock is shared by
 * lines of one variant: a later line gets what earlier ones left.
 */
import type { LineProblem, QuoteLine, QuotedLine } from '../contract.js';
import type { StoreData, StoreVariant } from './model.js';
import { fulfillableOn, sellableQuantity } from './stock.js';

export interface PricedLine {
  quoted: QuotedLine;
  source: StoreVariant;
}

export function priceLines(data: StoreData, lines: QuoteLine[]): { priced: PricedLine[]; problems: LineProblem[] } {
  const priced: PricedLine[] = [];
  const problems: LineProblem[] = [];
  const taken = new Map<string, number>();
  for (const line of lines) {
    const source = data.variants.get(line.variantId);
    if (!source) {
      problems.push({ lineId: line.lineId, code: 'not_found' });
      continue;
    }
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      problems.push({ lineId: line.lineId, code: 'invalid_quantity' });
      continue;
    }
    const status = source.variant.availability.status;
    if (status === 'discontinued' || status === 'out_of_stock') {
      problems.push({ lineId: line.lineId, code: status });
      continue;
    }
    const sellable = sellableQuantity(source);
    if (sellable !== null) {
      const left = sellable - (taken.get(source.variant.id) ?? 0);
      if (line.quantity > left) problems.push({ lineId: line.lineId, code: 'insufficient_stock', available: Math.max(0, left) });
      taken.set(source.variant.id, (taken.get(source.variant.id) ?? 0) + line.quantity);
    }
    const { variant, product } = source;
    const imageUrl = variant.media?.[0]?.url ?? product.media[0]?.url;
    priced.push({
      source,
      quoted: {
        lineId: line.lineId,
        variantId: variant.id,
        productId: product.id,
        title: product.title,
        ...(variant.options.length > 0 && { variantTitle: variant.title }),
        ...(variant.sku && { sku: variant.sku }),
        unitPrice: variant.price.amount,
        quantity: line.quantity,
        ...(imageUrl && { imageUrl }),
        requiresShipping: variant.requiresShipping,
        fulfillableOn: fulfillableOn(source, line.quantity),
        subtotal: variant.price.amount * line.quantity,
      },
    });
  }
  return { priced, problems };
}
