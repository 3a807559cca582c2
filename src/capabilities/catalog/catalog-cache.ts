/**
 * Catalog reads through a per-tenant LRU cache (TTL = the tenant's `catalog_cache_ttl_seconds`,
 * 0 = no cache), so repeated searches, lookups and fulfillment answers do not reach the backend.
 * Lookups are cached per request id (its resolution, or that it is unknown) and per product, so
 * a batch only asks the backend for the ids it has not seen. An adapter with `onCatalogChange`
 * drops entries early: the changed products, what resolves to them, unknown ids, every search
 * page and every fulfillment answer (any of which the change may alter). Entries are kept per
 * buyer language (a store may translate); the client IP reaches the store on misses only and
 * never keys an entry.
 */
import { LRUCache } from 'lru-cache';
import type {
  Adapter,
  CatalogChange,
  CatalogVariant,
  LookupOptions,
  CatalogProduct,
  FulfillmentDiscoveryQuery,
  LookupResult,
  PickupLocation,
  RequestContext,
  SearchPage,
  SearchQuery,
  VariantFulfillment,
} from '../../../adapters/contract.js';
import type { AnswerScope } from '../operation.js';
import type { Tenant } from '../../tenancy/tenant.js';

/**
 * The catalog calls of an adapter that capabilities use. Discovery is always callable: a store
 * without it (`capabilities.fulfillmentDiscovery` false) answers nothing, and the filters
 * already told the platform so.
 */
export type CatalogReader = Pick<Adapter, 'search' | 'lookup' | 'pickupLocations'> & Required<Pick<Adapter, 'discoverFulfillment'>>;

const NO_DISCOVERY: CatalogReader['discoverFulfillment'] = async () => [];

/** The store's discovery when it declares one (`capabilities.fulfillmentDiscovery`). */
const discoveryOf = (adapter: Adapter): CatalogReader['discoverFulfillment'] =>
  (adapter.capabilities.fulfillmentDiscovery && adapter.discoverFulfillment?.bind(adapter)) || NO_DISCOVERY;

function directReader(adapter: Adapter): CatalogReader {
  return {
    search: (query, signal, context) => adapter.search(query, signal, context),
    lookup: (ids, signal, options) => adapter.lookup(ids, signal, options),
    pickupLocations: (signal) => adapter.pickupLocations(signal),
    discoverFulfillment: discoveryOf(adapter),
  };
}

/** A cached reader also counts catalog changes, so answers built from its entries can tell they are stale. */
interface CachedReader extends CatalogReader {
  readonly generation: number;
}

type Resolution = { productId: string; variantId: string; match: LookupResult['inputs'][number]['match'] } | { unknown: true };
type Entry = SearchPage | Resolution | CatalogProduct | VariantFulfillment | PickupLocation[];

/** Entries per tenant; a catalog bigger than this simply gets fewer hits. */
const MAX_ENTRIES = 5000;

/** Entries of one language: `{kind}:{language}|{id}`. */
const lang = (context: RequestContext | undefined) => context?.language ?? '';
const key = {
  search: (language: string, query: SearchQuery) => `s:${language}|${JSON.stringify(query)}`,
  id: (language: string, id: string) => `i:${language}|${id}`,
  product: (language: string, id: string) => `p:${language}|${id}`,
  fulfillment: (variantId: string, query: FulfillmentDiscoveryQuery) =>
    `f:${JSON.stringify([variantId, query.destination, query.methods ?? null])}`,
  locations: 'l',
};

function cachedReader(adapter: Adapter, ttlMs: number, now: () => number): CachedReader {
  const discover = discoveryOf(adapter);
  const cache = new LRUCache<string, Entry>({ max: MAX_ENTRIES, ttl: ttlMs, ttlResolution: 0, perf: { now } });
  let generation = 0;

  adapter.onCatalogChange?.((change: CatalogChange) => {
    generation++;
    if ('all' in change) return cache.clear();
    const changed = new Set(change.productIds);
    const stale = [...cache.entries()].flatMap(([k, value]) => {
      const kind = k.slice(0, 2);
      if (kind === 'p:') return changed.has(k.slice(k.indexOf('|') + 1)) ? [k] : [];
      if (kind === 'i:') return 'unknown' in value || changed.has((value as { productId: string }).productId) ? [k] : [];
      return kind === 's:' || kind === 'f:' ? [k] : [];
    });
    for (const k of stale) cache.delete(k);
  });

  return {
    get generation() {
      return generation;
    },

    async search(query, signal, context) {
      const k = key.search(lang(context), query);
      const hit = cache.get(k) as SearchPage | undefined;
      if (hit) return hit;
      const page = await adapter.search(query, signal, context);
      cache.set(k, page);
      return page;
    },

    async lookup(ids, signal, options) {
      const language = lang(options?.context);
      const found = new Map<string, LookupResult>();
      const add = (product: CatalogProduct, input: LookupResult['inputs'][number]) => {
        const result = found.get(product.id) ?? { product, inputs: [] };
        result.inputs.push(input);
        found.set(product.id, result);
      };
      const misses: string[] = [];
      for (const id of ids) {
        const resolution = cache.get(key.id(language, id)) as Resolution | undefined;
        if (resolution && 'unknown' in resolution) continue;
        const product = resolution && (cache.get(key.product(language, resolution.productId)) as CatalogProduct | undefined);
        if (resolution && product && hasSelection(product, options?.selected))
          add(product, { id, variantId: resolution.variantId, match: resolution.match });
        else misses.push(id);
      }
      if (misses.length === 0) return [...found.values()];
      const resolved = new Set<string>();
      for (const result of await adapter.lookup(misses, signal, options)) {
        cache.set(key.product(language, result.product.id), result.product);
        for (const input of result.inputs) {
          cache.set(key.id(language, input.id), { productId: result.product.id, variantId: input.variantId, match: input.match });
          resolved.add(input.id);
          add(result.product, input);
        }
      }
      for (const id of misses) if (!resolved.has(id)) cache.set(key.id(language, id), { unknown: true });
      return [...found.values()];
    },

    async discoverFulfillment(query, signal) {
      const answers = new Map<string, VariantFulfillment>();
      for (const id of query.variantIds) {
        const hit = cache.get(key.fulfillment(id, query)) as VariantFulfillment | undefined;
        if (hit) answers.set(id, hit);
      }
      const misses = query.variantIds.filter((id) => !answers.has(id));
      if (misses.length > 0) {
        for (const answer of await discover({ ...query, variantIds: misses }, signal)) {
          cache.set(key.fulfillment(answer.variantId, query), answer);
          answers.set(answer.variantId, answer);
        }
      }
      return query.variantIds.flatMap((id) => answers.get(id) ?? []);
    },

    async pickupLocations(signal) {
      const hit = cache.get(key.locations) as PickupLocation[] | undefined;
      if (hit) return hit;
      const locations = await adapter.pickupLocations(signal);
      cache.set(key.locations, locations);
      return locations;
    },
  };
}

/**
 * Whether a cached product can answer a selection: it lists a variant with every selected value
 * (a store listing only some variants of a large product is asked again, with the selection).
 */
function hasSelection(product: CatalogProduct, selected: LookupOptions['selected']): boolean {
  if (!selected?.length) return true;
  const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
  const has = (v: CatalogVariant) => selected.every((s) => v.options.some((o) => same(o.name, s.name) && same(o.value, s.value)));
  return product.variants.some(has);
}

const readers = new WeakMap<Tenant, CatalogReader | CachedReader>();

function tenantReader(tenant: Tenant, now: () => number): CatalogReader | CachedReader {
  let reader = readers.get(tenant);
  if (!reader) {
    const ttlMs = tenant.policies.catalogCacheTtlMs;
    reader = ttlMs > 0 ? cachedReader(tenant.adapter, ttlMs, now) : directReader(tenant.adapter);
    readers.set(tenant, reader);
  }
  return reader;
}

/**
 * The tenant's catalog reader: cached unless its TTL is 0. One per tenant object (a reload starts
 * afresh). With the request's `client` facts, every search and lookup carries them to the store.
 */
export function catalogOf(tenant: Tenant, now: () => number, client?: RequestContext): CatalogReader {
  const reader = tenantReader(tenant, now);
  if (!client || Object.keys(client).length === 0) return reader;
  return {
    search: (query, signal) => reader.search(query, signal, client),
    lookup: (ids, signal, options) => reader.lookup(ids, signal, { ...options, context: client }),
    pickupLocations: (signal) => reader.pickupLocations(signal),
    discoverFulfillment: (query, signal) => reader.discoverFulfillment(query, signal),
  };
}

/**
 * How long a catalog answer may be reused: as long as the entries it was built from, and only
 * until the catalog changes (the version moves). Undefined when the tenant caches nothing.
 */
export function catalogAnswerScope(tenant: Tenant, now: () => number): AnswerScope | undefined {
  const reader = tenantReader(tenant, now);
  if (!('generation' in reader)) return undefined;
  return { ttlMs: tenant.policies.catalogCacheTtlMs, version: reader.generation };
}
