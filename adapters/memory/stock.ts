/** Availability from the stock rules of catalog.yaml: tracked or untracked, backorder, preorder, discontinued. */
import type { CatalogVariant } from '../contract.js';
import type { StoreVariant } from './model.js';

type StockRules = Pick<StoreVariant, 'stock' | 'backorder' | 'preorderOn' | 'discontinued'>;

export function availabilityOf(rules: StockRules): CatalogVariant['availability'] {
  if (rules.discontinued) return { available: false, status: 'discontinued', quantity: 0 };
  if (rules.preorderOn) return { available: true, status: 'preorder', quantity: rules.stock, availableOn: rules.preorderOn };
  if (rules.stock === null || rules.stock > 0) return { available: true, status: 'in_stock', quantity: rules.stock };
  if (rules.backorder) return { available: true, status: 'backorder', quantity: null };
  return { available: false, status: 'out_of_stock', quantity: 0 };
}

/** How many units can be sold now; null = no limit (untracked, backorder, preorder). */
export function sellableQuantity(variant: StockRules): number | null {
  if (variant.discontinued) return 0;
  if (variant.stock === null || variant.backorder || variant.preorderOn) return null;
  return variant.stock;
}

/** `now`, the preorder date, or null when unknown (sold on backorder beyond stock). */
export function fulfillableOn(variant: StockRules, quantity: number): string | null {
  if (variant.preorderOn) return variant.preorderOn;
  if (variant.backorder && (variant.stock ?? Infinity) < quantity) return null;
  return 'now';
}
