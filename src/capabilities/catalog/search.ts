/**
 * search_catalog (spec part 1 §4.1, §8): free text and filters, paged with a signed cursor.
 * The store ranks and filters (text, categories, price, custom filters); the gateway screens
 * variants (price, fulfillment). When fulfillment filters drop products, further store pages are
 * read (a few at most) so a page is full when it can be, and the cursor remembers how far into
 * the store's page it got. `total_count` is the store's count, and is left out when the gateway's
 * own filters make it unknowable.
 */
import { InvalidPageTokenError, type CatalogProduct, type SearchQuery } from '../../../adapters/contract.js';
import type { Product, SearchRequest } from '../../../schemas/catalog.js';
import type { OperationContext } from '../context.js';
import { success, type OperationResult } from '../operation.js';
import { ProtocolError } from '../../protocol/errors.js';
import { catalogOf, type CatalogReader } from './catalog-cache.js';
import { CURSOR_KEY_PURPOSE, queryBinding, readCursor, writeCursor, type CursorState } from './cursor.js';
import { readFilters, type CatalogFilterSet } from './filters.js';
import { toProduct } from './product-shape.js';
import { VariantScreen } from './variant-screen.js';

const DEFAULT_PAGE_SIZE = 10;
/** Store pages read for one response when gateway-side filters leave a page short. */
const MAX_STORE_PAGES = 5;

const NO_INPUT =
  'a search needs a query, a filter or an extension input: send "query" with free text, or "filters" (categories, price, ...) to browse';

interface Page {
  products: Product[];
  next?: CursorState;
  totalCount?: number;
}

async function shape(filters: CatalogFilterSet, reader: CatalogReader, products: CatalogProduct[]): Promise<Product[]> {
  const screen = await VariantScreen.of(filters, products);
  const shown = products.flatMap((product) => {
    const variants = product.variants.filter((v) => screen.passes(v));
    // The store's representative first: agents often take the first variant as the default.
    variants.sort((a, b) => Number(b.id === product.featuredVariantId) - Number(a.id === product.featuredVariantId));
    return variants.length > 0 ? [{ product, variants }] : [];
  });
  const extensions = await screen.extensionMembers(shown.flatMap((s) => s.variants));
  return shown.map(({ product, variants }) => toProduct(product, { variants, extensions }));
}

async function collect(reader: CatalogReader, filters: CatalogFilterSet, query: SearchQuery, start: CursorState): Promise<Page> {
  const out: Product[] = [];
  let state = start;
  let totalCount: number | undefined;
  for (let reads = 0; reads < MAX_STORE_PAGES; reads++) {
    const page = await reader.search({ ...query, ...(state.pageToken !== undefined && { pageToken: state.pageToken }) });
    totalCount = page.totalCount;
    const products = (await shape(filters, reader, page.products)).slice(state.skip);
    const room = query.limit - out.length;
    if (products.length > room) {
      out.push(...products.slice(0, room));
      return { products: out, next: { ...state, skip: state.skip + room }, totalCount };
    }
    out.push(...products);
    if (page.nextPageToken === undefined) return { products: out, totalCount };
    state = { pageToken: page.nextPageToken, skip: 0 };
    if (out.length === query.limit) break;
  }
  return { products: out, next: state, totalCount };
}

export async function searchCatalog(ctx: OperationContext, request: SearchRequest): Promise<OperationResult> {
  const reader = catalogOf(ctx.tenant, ctx.now, ctx.client);
  const filters = await readFilters(ctx, reader, request, 'search');
  const text = request.query?.trim();
  if (!text && !filters.given) throw new ProtocolError('invalid_request', NO_INPUT);

  const limit = Math.min(request.pagination?.limit ?? DEFAULT_PAGE_SIZE, ctx.tenant.policies.searchPageLimit);
  const query: SearchQuery = {
    ...(text && { text }),
    ...(filters.categories && { categories: filters.categories }),
    ...(filters.price && { price: filters.price }),
    ...(filters.custom && { custom: filters.custom }),
    limit,
  };
  const key = ctx.secret.key(CURSOR_KEY_PURPOSE);
  // What decides the results: a context location that only feeds the fulfillment report does not.
  const narrowing = filters.extensions.flatMap((part) => (part.narrows === undefined ? [] : [part.narrows]));
  const binding = queryBinding(ctx.tenant.id, [query, narrowing, request.context?.currency ?? null]);
  const cursor = request.pagination?.cursor;
  const start = cursor === undefined ? { skip: 0 } : readCursor(key, binding, cursor);

  let page: Page;
  try {
    page = await collect(reader, filters, query, start);
  } catch (error) {
    if (error instanceof InvalidPageTokenError)
      throw new ProtocolError('invalid_cursor', '$.pagination.cursor is no longer valid for this search; start again without a cursor');
    throw error;
  }
  const exactCount = narrowing.length === 0 && page.totalCount !== undefined;
  return success({
    products: page.products,
    pagination: {
      ...(page.next && { cursor: writeCursor(key, binding, page.next) }),
      has_next_page: page.next !== undefined,
      ...(exactCount && { total_count: page.totalCount }),
    },
    ...(filters.messages.length > 0 && { messages: filters.messages }),
  });
}
