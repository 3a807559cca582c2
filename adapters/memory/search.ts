/**
 * Catalog search over the in-memory products: every query word must match somewhere (title,
 * SKU, categories, tags, option values, description); products matching more words in the title
 * come first, then by a field-weighted score, then in catalog order. Filters are ANDed.
 */
import type { CatalogProduct, SearchPage, SearchQuery } from '../contract.js';
import { SignedCursors } from '../kit/signed-cursor.js';
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
/** What a query asks for, regardless of the page. */
type Wanted = Omit<SearchQuery, 'limit' | 'pageToken'>;
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

function passesFilters(product: CatalogProduct, query: Wanted): boolean {
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

/** Page tokens holding the next page's offset, keyed with `secret`. */
export const pageTokens = (secret: string) =>
  new SignedCursors(secret, 'memory-page-token', (offset) =>
    Number.isSafeInteger(offset) && (offset as number) > 0 ? (offset as number) : undefined,
  );

/** What a page token is bound to: the query's filters, so one from another query is refused rather than misread. */
const binding = ({ limit: _limit, pageToken: _token, ...rest }: SearchQuery) => rest;

/** Every product matching the query's text and filters, best first. */
export function matching(data: StoreData, index: Index, query: Wanted): CatalogProduct[] {
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
  return ranked.map((r) => r.product);
}

/** One page of the matching products; the page after it is named by a signed token. */
export function search(data: StoreData, index: Index, tokens: ReturnType<typeof pageTokens>, query: SearchQuery): SearchPage {
  const found = matching(data, index, query);
  const offset = query.pageToken ? tokens.read(query.pageToken, binding(query)) : 0;
  const end = offset + Math.max(1, query.limit);
  return {
    products: found.slice(offset, end),
    totalCount: found.length,
    ...(end < found.length && { nextPageToken: tokens.write(binding(query), end) }),
  };
}
