/**
 * Catalog search on the Storefront API: text through `search` (with Shopify's product filters),
 * browsing without text through `products` (with the search syntax for the same filters). The
 * page token wraps Shopify's cursor with a fingerprint of the query, so a token is never read
 * for another query.
 */
import { createHash } from 'node:crypto';
import { InvalidPageTokenError, type SearchQuery } from '../contract.js';
import { fromMinorUnits } from '../kit/money.js';

function fingerprint(query: SearchQuery): string {
  const { limit: _limit, pageToken: _token, ...rest } = query;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 12);
}

export const pageToken = (query: SearchQuery, cursor: string) =>
  Buffer.from(JSON.stringify({ c: cursor, q: fingerprint(query) })).toString('base64url');

/** Shopify's cursor inside a page token of this query. */
export function readPageToken(query: SearchQuery): string | undefined {
  if (!query.pageToken) return undefined;
  try {
    const { c, q } = JSON.parse(Buffer.from(query.pageToken, 'base64url').toString('utf8')) as { c: unknown; q: unknown };
    if (typeof c === 'string' && q === fingerprint(query)) return c;
  } catch {
    // falls through to the error
  }
  throw new InvalidPageTokenError();
}

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
