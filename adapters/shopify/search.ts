/**
 * Catalog search on the Storefront API: text through `search` (with Shopify's product filters),
 * browsing without text through `products` (with the search syntax for the same filters). The
 * page token is Shopify's cursor, signed (adapters/kit/signed-cursor.ts, keyed with the Storefront
 * token) and bound to the query's filters: one altered, forged or replayed with another query is
 * refused (InvalidPageTokenError), never sent to Shopify.
 */
import type { SearchQuery } from '../contract.js';
import { fromMinorUnits } from '../kit/money.js';
import { SignedCursors } from '../kit/signed-cursor.js';

/** Page tokens holding Shopify's cursor, keyed with `secret`. */
export const pageTokens = (secret: string) =>
  new SignedCursors(secret, 'shopify-page-token', (cursor) => (typeof cursor === 'string' && cursor !== '' ? cursor : undefined));

/** What a page token is bound to: the query's filters (Shopify's cursors do not depend on the page size). */
export const pageBinding = ({ limit: _limit, pageToken: _token, ...rest }: SearchQuery) => rest;

/** Decimal major units for Shopify's Float price filters (exact for any real price). */
const major = (amount: number, currency: string) => Number(fromMinorUnits(amount, currency));

/** Storefront `ProductFilter`s: values of one filter are ORed, filters ANDed. */
export function productFilters(query: SearchQuery): Array<Record<string, unknown>> {
  const filters: Array<Record<string, unknown>> = (query.categories ?? []).map((c) => ({ productType: c }));
  if (query.price) {
    const { min, max, currency } = query.price;
    filters.push({
      price: { ...(min !== undefined && { min: major(min, currency) }), ...(max !== undefined && { max: major(max, currency) }) },
    });
  }
  if (typeof query.custom?.available === 'boolean') filters.push({ available: query.custom.available });
  return filters;
}

const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The same filters in Shopify's search syntax, for `products(query:)`. */
export function browseQuery(query: SearchQuery): string | undefined {
  const clauses: string[] = [];
  if (query.categories?.length) {
    const types = query.categories.map((c) => `product_type:${quoted(c)}`);
    clauses.push(types.length > 1 ? `(${types.join(' OR ')})` : types[0]!);
  }
  if (query.price?.min !== undefined) clauses.push(`variants.price:>=${fromMinorUnits(query.price.min, query.price.currency)}`);
  if (query.price?.max !== undefined) clauses.push(`variants.price:<=${fromMinorUnits(query.price.max, query.price.currency)}`);
  if (typeof query.custom?.available === 'boolean') clauses.push(`available_for_sale:${query.custom.available}`);
  return clauses.length ? clauses.join(' AND ') : undefined;
}
