/**
 * Catalog search over the in-memory products: every query word must match somewhere (title,
 * SKU, categories, tags, option values, description); products matching more words in the title
 * come first, then by a field-weighted score, then in catalog order. Filters are ANDed.
 */
import { createHash } from 'node:crypto';
import { InvalidPageTokenError, type CatalogProduct, type SearchPage, type SearchQuery } from '../contract.js';
import type { StoreData } from './model.js';
import { matchesWord, queryForms, words } from './text.js';

/** Searchable fields, most telling first, with their weight in the score. */
const FIELDS = [
  { name: 'title', weight: 8 },
  { name: 'sku', weight: 6 },
  { name: 'taxonomy', weight: 4 },
  { name: 'options', weight: 2 },
  { name: 'description', weight: 1 },
] as const;

type FieldName = (typeof FIELDS)[number]['name'];
type Index = Map<string, Record<FieldName, string[]>>;

export function buildSearchIndex(data: StoreData): Index {
  return new Map(
    data.products.map((p) => [
      p.id,
      {
        title: words(p.title),
        sku: p.variants.flatMap((v) => (v.sku ? words(v.sku) : [])),
        taxonomy: [...p.categories.flatMap((c) => words(c.value)), ...p.tags.flatMap(words)],
        options: p.variants.flatMap((v) => v.options.flatMap((o) => words(o.value))),
        description: [...words(p.description ?? ''), ...(p.vendor ? words(p.vendor.name) : [])],
      },
    ]),
  );
}

/** Rank of a product for the query words; null when some word matches nowhere. */
function rank(fields: Record<FieldName, string[]>, queryWords: string[]): { inTitle: number; score: number } | null {
  let inTitle = 0;
  let score = 0;
  for (const word of queryWords) {
    const forms = queryForms(word);
    const best = FIELDS.find((f) => matchesWord(fields[f.name], forms));
    if (!best) return null;
    if (best.name === 'title') inTitle += 1;
    score += best.weight + (fields[best.name].includes(word) ? 1 : 0);
  }
  return { inTitle, score };
}

function passesFilters(product: CatalogProduct, query: SearchQuery): boolean {
  if (query.categories?.length) {
    const wanted = new Set(query.categories.map((c) => c.toLowerCase()));
    if (!product.categories.some((c) => wanted.has(c.value.toLowerCase()))) return false;
  }
  const { price, custom } = query;
  const inRange = product.variants.filter(
    (v) => (price?.min === undefined || v.price.amount >= price.min) && (price?.max === undefined || v.price.amount <= price.max),
  );
  if (inRange.length === 0) return false;
  // available: true wants a buyable variant in range; false wants none.
  if (custom?.available === true) return inRange.some((v) => v.availability.available);
  if (custom?.available === false) return inRange.every((v) => !v.availability.available);
  return true;
}

/** Ties a page token to its query, so a token from another query is refused rather than misread. */
function fingerprint(query: SearchQuery): string {
  const { limit: _limit, pageToken: _token, ...rest } = query;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url').slice(0, 12);
}

function readToken(token: string, query: SearchQuery): number {
  try {
    const { o, q } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o: unknown; q: unknown };
    if (q === fingerprint(query) && Number.isSafeInteger(o) && (o as number) > 0) return o as number;
  } catch {
    // falls through to the error
  }
  throw new InvalidPageTokenError();
}

export function search(data: StoreData, index: Index, query: SearchQuery): SearchPage {
  if (query.price && query.price.currency !== data.currency) {
    throw new RangeError(`price filter currency ${query.price.currency} is not the store currency ${data.currency}`);
  }
  const queryWords = words(query.text ?? '');
  const ranked = data.products.flatMap((product, order) => {
    if (!passesFilters(product, query)) return [];
    const r = queryWords.length ? rank(index.get(product.id)!, queryWords) : { inTitle: 0, score: 0 };
    return r ? [{ product, order, ...r }] : [];
  });
  ranked.sort((a, b) => b.inTitle - a.inTitle || b.score - a.score || a.order - b.order);

  const offset = query.pageToken ? readToken(query.pageToken, query) : 0;
  const limit = Math.max(1, query.limit);
  const end = offset + limit;
  return {
    products: ranked.slice(offset, end).map((r) => r.product),
    totalCount: ranked.length,
    ...(end < ranked.length && { nextPageToken: Buffer.from(JSON.stringify({ o: end, q: fingerprint(query) })).toString('base64url') }),
  };
}
