/**
 * Catalog reads from `wc/v3/products`:
 * - search: text, category ids (category values mapped to ids once, from
 *   `products/categories`), min/max price, stock status; ordered as the shop's own catalog
 *   (menu order); page numbers wrapped in signed page tokens; totals from X-WP-Total;
 * - lookup: product ids (`include`), variation ids (`/variations?include=`, or
 *   `/products/{id}` on stores before WooCommerce 10.3), SKUs (`sku=` covers variations too)
 *   and slugs (`slug=`);
 * - variations of every variable product in one call (`/variations?parent=a,b,c`, WooCommerce
 *   10.3+; older stores: one call per product), reused until the product changes
 *   (`date_modified_gmt` is part of the cache key) or the cache time passes.
 */
import { LRUCache } from 'lru-cache';
import type { CatalogProduct, CatalogVariant, LookupResult, SearchPage, SearchQuery } from '../contract.js';
import { toCatalogProduct } from './catalog-map.js';
import type { WooHttp } from './http.js';
import { isWpError, unexpected } from './http.js';
import { minorToDecimal } from './money.js';
import { PageTokens } from './page-token.js';
import type { StoreInfo } from './store-info.js';
import { decodeVariantId } from './variant-id.js';
import {
  expectShape,
  WcCategories,
  WcProduct,
  WcProducts,
  WcSkuHits,
  WcVariation,
  WcVariations,
  type WcVariation as Variation,
} from './wc-shapes.js';

const MAX_PER_PAGE = 100;

export interface CatalogOptions {
  discontinuedTag: string;
  cacheMs: number;
}

export interface KnownVariant {
  product: CatalogProduct;
  variant: CatalogVariant;
}

export class Catalog {
  private readonly variations: LRUCache<string, Variation[]>;
  /** Variants seen in recent answers, for pricing lines without reading the catalog again. */
  private readonly known: LRUCache<string, KnownVariant>;
  private categoryIds: { at: number; byName: Map<string, number> } | undefined;
  /** WooCommerce 10.3+ answers `/variations`; learned from the first call. */
  private variationsEndpoint = true;

  constructor(
    private readonly http: WooHttp,
    private readonly info: StoreInfo,
    private readonly tokens: PageTokens,
    private readonly options: CatalogOptions,
  ) {
    this.variations = new LRUCache({ max: 5000, ttl: Math.max(1, options.cacheMs), ttlAutopurge: false });
    this.known = new LRUCache({ max: 20_000, ttl: Math.max(1, options.cacheMs), ttlAutopurge: false });
  }

  /** Variants already seen whose id starts with one of these post ids (no store call). */
  knownFor(postIds: number[]): Map<string, KnownVariant> {
    const wanted = new Set(postIds.map(String));
    const out = new Map<string, KnownVariant>();
    for (const [id, known] of this.known.entries()) if (wanted.has(id.split('~')[0]!)) out.set(id, known);
    return out;
  }

  /** The variants behind these ids, from recent answers or one lookup for the rest. */
  async variants(ids: string[], signal?: AbortSignal): Promise<Map<string, KnownVariant>> {
    const missing = [...new Set(ids)].filter((id) => !this.known.has(id));
    if (missing.length) await this.lookup(missing, signal);
    return new Map(
      ids.flatMap((id) => {
        const known = this.known.get(id);
        return known ? [[id, known] as const] : [];
      }),
    );
  }

  private async products(params: Record<string, string | number>, signal?: AbortSignal) {
    const response = await this.http.rest('GET', 'products', { params: { status: 'publish', per_page: MAX_PER_PAGE, ...params } }, signal);
    if (response.status !== 200) throw unexpected('GET wc/v3/products', response.body);
    return { products: expectShape(WcProducts, response.body, 'GET wc/v3/products'), headers: response.headers };
  }

  /** Category values (names, case-insensitive) to term ids, read once per cache period. */
  private async categoryIdsOf(values: string[], signal?: AbortSignal): Promise<number[]> {
    if (!this.categoryIds || Date.now() - this.categoryIds.at > this.options.cacheMs) {
      const byName = new Map<string, number>();
      for (let page = 1, pages = 1; page <= pages; page++) {
        const response = await this.http.rest('GET', 'products/categories', { params: { per_page: MAX_PER_PAGE, page } }, signal);
        if (response.status !== 200) throw unexpected('GET wc/v3/products/categories', response.body);
        for (const c of expectShape(WcCategories, response.body, 'GET wc/v3/products/categories')) {
          byName.set(c.name.toLowerCase(), c.id);
          byName.set(c.slug.toLowerCase(), c.id);
        }
        pages = Number(response.headers['x-wp-totalpages'] ?? 1);
      }
      this.categoryIds = { at: Date.now(), byName };
    }
    return values.flatMap((v) => {
      const id = this.categoryIds!.byName.get(v.toLowerCase());
      return id === undefined ? [] : [id];
    });
  }

  private cacheKey(product: WcProduct): string {
    return `${product.id}@${product.date_modified_gmt ?? ''}`;
  }

  /** Variations of the variable products, from the cache or in as few calls as the store allows. */
  private async variationsOf(products: WcProduct[], signal?: AbortSignal): Promise<Map<number, Variation[]>> {
    const result = new Map<number, Variation[]>();
    const missing = products.filter((p) => p.type === 'variable' && p.variations.length > 0 && !this.variations.has(this.cacheKey(p)));
    if (missing.length > 0 && this.variationsEndpoint) {
      const fetched = await this.variationsByParent(
        missing.map((p) => p.id),
        signal,
      );
      if (fetched) {
        for (const p of missing) this.variations.set(this.cacheKey(p), fetched.get(p.id) ?? []);
      }
    }
    const stillMissing = missing.filter((p) => !this.variations.has(this.cacheKey(p)));
    await Promise.all(
      stillMissing.map(async (p) => {
        const list: Variation[] = [];
        for (let page = 1, pages = 1; page <= pages; page++) {
          const what = `GET wc/v3/products/${p.id}/variations`;
          const response = await this.http.rest('GET', `products/${p.id}/variations`, { params: { per_page: MAX_PER_PAGE, page } }, signal);
          if (response.status !== 200) throw unexpected(what, response.body);
          list.push(...expectShape(WcVariations, response.body, what));
          pages = Number(response.headers['x-wp-totalpages'] ?? 1);
        }
        this.variations.set(this.cacheKey(p), list);
      }),
    );
    for (const p of products) if (p.type === 'variable') result.set(p.id, this.variations.get(this.cacheKey(p)) ?? []);
    return result;
  }

  /** `/variations?parent=…` (WooCommerce 10.3+); undefined when the store has no such route. */
  private async variationsByParent(parents: number[], signal?: AbortSignal): Promise<Map<number, Variation[]> | undefined> {
    const byParent = new Map<number, Variation[]>();
    for (let page = 1, pages = 1; page <= pages; page++) {
      const response = await this.http.rest(
        'GET',
        'variations',
        { params: { parent: parents.join(','), per_page: MAX_PER_PAGE, page } },
        signal,
      );
      if (response.status === 404 && isWpError(response.body) && response.body.code === 'rest_no_route') {
        this.variationsEndpoint = false;
        return undefined;
      }
      if (response.status !== 200) throw unexpected('GET wc/v3/variations', response.body);
      for (const v of expectShape(WcVariations, response.body, 'GET wc/v3/variations')) {
        if (v.parent_id === undefined) continue;
        byParent.set(v.parent_id, [...(byParent.get(v.parent_id) ?? []), v]);
      }
      pages = Number(response.headers['x-wp-totalpages'] ?? 1);
    }
    return byParent;
  }

  private async toCatalog(products: WcProduct[], signal?: AbortSignal): Promise<CatalogProduct[]> {
    const variations = await this.variationsOf(products, signal);
    const { currency } = await this.info.get(signal);
    const mapped = products.map((p) =>
      toCatalogProduct(p, variations.get(p.id) ?? [], { currency, discontinuedTag: this.options.discontinuedTag }),
    );
    for (const product of mapped) for (const variant of product.variants) this.known.set(variant.id, { product, variant });
    return mapped;
  }

  async search(query: SearchQuery, signal?: AbortSignal): Promise<SearchPage> {
    const page = this.tokens.read(query);
    const { currency, decimals } = await this.info.get(signal);
    const params: Record<string, string | number> = {
      per_page: Math.min(MAX_PER_PAGE, Math.max(1, query.limit)),
      page,
      orderby: 'menu_order',
      order: 'asc',
    };
    if (query.text) params.search = query.text;
    if (query.categories?.length) {
      const ids = await this.categoryIdsOf(query.categories, signal);
      if (ids.length === 0) return { products: [], totalCount: 0 };
      params.category = ids.join(',');
    }
    if (query.price?.min !== undefined) params.min_price = minorToDecimal(query.price.min, currency, decimals);
    if (query.price?.max !== undefined) params.max_price = minorToDecimal(query.price.max, currency, decimals);
    const stock = query.custom?.stock_status;
    if (typeof stock === 'string') params.stock_status = stock;
    const { products, headers } = await this.products(params, signal);
    const pages = Number(headers['x-wp-totalpages'] ?? 1);
    const total = Number(headers['x-wp-total']);
    return {
      products: await this.toCatalog(products, signal),
      ...(page < pages && { nextPageToken: this.tokens.write(query, page + 1) }),
      ...(Number.isSafeInteger(total) && { totalCount: total }),
    };
  }

  /** Parent products of variation ids (stores before 10.3 answer a variation at /products/{id}). */
  private async parentsOfVariations(ids: number[], signal?: AbortSignal): Promise<Map<number, number>> {
    const parents = new Map<number, number>();
    if (ids.length === 0) return parents;
    if (this.variationsEndpoint) {
      const response = await this.http.rest('GET', 'variations', { params: { include: ids.join(','), per_page: MAX_PER_PAGE } }, signal);
      if (response.status === 200) {
        for (const v of expectShape(WcVariations, response.body, 'GET wc/v3/variations')) if (v.parent_id) parents.set(v.id, v.parent_id);
        return parents;
      }
      if (!(response.status === 404 && isWpError(response.body) && response.body.code === 'rest_no_route'))
        throw unexpected('GET wc/v3/variations', response.body);
      this.variationsEndpoint = false;
    }
    await Promise.all(
      ids.map(async (id) => {
        const response = await this.http.rest('GET', `products/${id}`, {}, signal);
        if (response.status === 404) return;
        if (response.status !== 200) throw unexpected(`GET wc/v3/products/${id}`, response.body);
        const variation = expectShape(WcVariation, response.body, `GET wc/v3/products/${id}`);
        if (variation.type === 'variation' && variation.parent_id) parents.set(id, variation.parent_id);
      }),
    );
    return parents;
  }

  async lookup(ids: string[], signal?: AbortSignal): Promise<LookupResult[]> {
    const numeric = new Map<string, number>();
    const keys: string[] = [];
    for (const id of ids) {
      const ref = /^\d+(~.*)?$/.test(id) ? decodeVariantId(id) : null;
      if (ref) numeric.set(id, ref.id);
      else if (id.trim()) keys.push(id);
    }
    const found = new Map<number, WcProduct>();
    const wanted = [...new Set(numeric.values())];
    if (wanted.length) for (const p of (await this.products({ include: wanted.join(',') }, signal)).products) found.set(p.id, p);
    const variationParents = await this.parentsOfVariations(
      wanted.filter((id) => !found.has(id)),
      signal,
    );
    const skuHits = new Map<string, { productId: number; variationId?: number }>();
    if (keys.length) {
      // With `sku`, WooCommerce lists variations as well (post types product and product_variation).
      const what = 'GET wc/v3/products?sku=';
      const response = await this.http.rest(
        'GET',
        'products',
        { params: { status: 'publish', per_page: MAX_PER_PAGE, sku: keys.join(',') } },
        signal,
      );
      if (response.status !== 200) throw unexpected(what, response.body);
      const hits = expectShape(WcSkuHits, response.body, what);
      hits.forEach((hit, i) => {
        const key = keys.find((k) => k.toLowerCase() === hit.sku.toLowerCase());
        if (!key) return;
        if (hit.type === 'variation' && hit.parent_id) {
          skuHits.set(key, { productId: hit.parent_id, variationId: hit.id });
        } else {
          skuHits.set(key, { productId: hit.id });
          found.set(hit.id, expectShape(WcProduct, (response.body as unknown[])[i], what));
        }
      });
    }
    const slugs = keys.filter((k) => !skuHits.has(k));
    const slugHits = new Map<string, number>();
    await Promise.all(
      slugs.map(async (slug) => {
        const { products } = await this.products({ slug }, signal);
        const product = products.find((p) => p.slug === slug);
        if (product) {
          slugHits.set(slug, product.id);
          found.set(product.id, product);
        }
      }),
    );
    const parentIds = [...new Set([...variationParents.values(), ...[...skuHits.values()].map((h) => h.productId)])].filter(
      (id) => !found.has(id),
    );
    if (parentIds.length) for (const p of (await this.products({ include: parentIds.join(',') }, signal)).products) found.set(p.id, p);

    const catalog = new Map((await this.toCatalog([...found.values()], signal)).map((p) => [p.id, p]));
    const results = new Map<string, LookupResult>();
    const add = (productId: number, input: LookupResult['inputs'][number]) => {
      const product = catalog.get(String(productId));
      if (!product) return;
      const result = results.get(product.id) ?? { product, inputs: [] };
      result.inputs.push(input);
      results.set(product.id, result);
    };
    for (const id of ids) {
      const postId = numeric.get(id);
      if (postId !== undefined) {
        const product = catalog.get(String(postId));
        if (product && !id.includes('~')) {
          const exact = product.variants.find((v) => v.id === id);
          add(
            postId,
            exact && product.options.length === 0
              ? { id, variantId: id, match: 'exact' }
              : { id, variantId: product.featuredVariantId, match: 'featured' },
          );
          continue;
        }
        const parent = variationParents.get(postId);
        const variant =
          parent !== undefined
            ? catalog.get(String(parent))?.variants.find((v) => v.id === id || (!id.includes('~') && v.id.split('~')[0] === id))
            : undefined;
        if (parent !== undefined && variant) add(parent, { id, variantId: variant.id, match: 'exact' });
        continue;
      }
      const sku = skuHits.get(id);
      if (sku) {
        const product = catalog.get(String(sku.productId));
        const variant = sku.variationId
          ? product?.variants.find((v) => v.id.split('~')[0] === String(sku.variationId))
          : product?.variants[0];
        if (variant) add(sku.productId, { id, variantId: variant.id, match: 'exact' });
        continue;
      }
      const slug = slugHits.get(id);
      if (slug !== undefined) add(slug, { id, variantId: catalog.get(String(slug))!.featuredVariantId, match: 'featured' });
    }
    return [...results.values()];
  }
}
