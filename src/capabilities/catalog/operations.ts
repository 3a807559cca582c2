/** The catalog operations (spec part 1 §4.1): REST + MCP bindings from one declaration each. */
import { GetProductRequest, LookupRequest, SearchRequest } from '../../../schemas/catalog.js';
import { defineOperation } from '../operation.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { catalogAnswerScope } from './catalog-cache.js';
import { getProduct } from './get-product.js';
import { lookupCatalog } from './lookup.js';
import { searchCatalog } from './search.js';

const searchCatalogOperation = defineOperation({
  name: 'search_catalog',
  title: 'Search the catalog',
  description:
    'Free-text and filtered product search. Send `query` (every word must match; title matches rank first) and/or `filters` ' +
    "(categories, price in minor units of context.currency, the store's custom filters); `pagination.limit` (default 10) and " +
    'the `cursor` of the previous page.',
  capability: CAPABILITY.catalogSearch,
  rest: { method: 'POST', path: '/catalog/search', status: 200 },
  mcp: { id: false, payload: 'catalog' },
  answers: catalogAnswerScope,
  input: SearchRequest,
  handler: (ctx, { payload }) => searchCatalog(ctx, payload),
});

const lookupCatalogOperation = defineOperation({
  name: 'lookup_catalog',
  title: 'Look up products by id',
  description:
    'Resolves product ids, variant ids, SKUs and handles (as the store supports) to products; each returned variant lists the ' +
    'request ids that reached it in `inputs`. Unknown ids come back as `not_found` info messages.',
  capability: CAPABILITY.catalogLookup,
  rest: { method: 'POST', path: '/catalog/lookup', status: 200 },
  mcp: { id: false, payload: 'catalog' },
  answers: catalogAnswerScope,
  input: LookupRequest,
  handler: (ctx, { payload }) => lookupCatalog(ctx, payload),
});

const getProductOperation = defineOperation({
  name: 'get_product',
  title: 'Get one product',
  description:
    'Full detail of one product by product or variant id, with option selection: send `selected` [{name, label}] and ' +
    '`preferences` (option names, most important first). Each option value says whether it `exists` and is `available` next to ' +
    'the effective `product.selected`.',
  capability: CAPABILITY.catalogLookup,
  rest: { method: 'POST', path: '/catalog/product', status: 200 },
  mcp: { id: false, payload: 'catalog' },
  answers: catalogAnswerScope,
  input: GetProductRequest,
  handler: (ctx, { payload }) => getProduct(ctx, payload),
});

export const catalogOperations = [searchCatalogOperation, lookupCatalogOperation, getProductOperation];
