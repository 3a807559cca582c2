/**
 * The catalog on the Storefront API: search and browse (search.ts), lookups by product and variant
 * gid, handle and SKU, and the shop's pickup locations; products mapped by catalog-map.ts.
 */
import type { LookupOptions, LookupResult, PickupLocation, RequestContext, SearchPage, SearchQuery } from '../contract.js';
import { toCatalogProduct, type SfProduct } from './catalog-map.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { isGid } from './ids.js';
import { toPickupLocation, type SfLocation } from './pickup.js';
import { browseQuery, pageBinding, pageTokens, productFilters } from './search.js';
import type { Storefront, Storefronts } from './storefront.js';

const MAX_PAGE = 250;
/** `nodes(ids:)`: "The input must not contain more than 250 values" (Storefront 2026-10). */
const MAX_NODES = 250;
/** SKUs ORed in one `productVariants` query, whose page (250) also holds variants sharing a SKU. */
const SKUS_PER_QUERY = 50;

/** `items` in runs of at most `size`. */
const runs = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

type PageInfo = { hasNextPage: boolean; endCursor: string | null };
type LookupNode = ({ __typename: 'Product' } & SfProduct) | { __typename: 'ProductVariant'; id: string; product: SfProduct } | null;

/** What a lookup's ids reached: products by id, the product of each variant, the product of each handle, the variant of each SKU. */
interface Reached {
  products: Map<string, SfProduct>;
  variantProduct: Map<string, string>;
  byHandle: Map<string, SfProduct>;
  skuVariants: Map<string, string>;
}

export class ShopifyCatalog {
  constructor(
    private readonly client: ShopifyClient,
    private readonly storefronts: Storefronts,
    private readonly storefrontUrl: string,
    /** Keyed with the Storefront token: a store secret, the same on every replica. */
    private readonly tokens: ReturnType<typeof pageTokens>,
  ) {}

  async search(query: SearchQuery, signal?: AbortSignal, context?: RequestContext): Promise<SearchPage> {
    const after = query.pageToken ? this.tokens.read(query.pageToken, pageBinding(query)) : undefined;
    const market = this.storefronts.market(query.price?.currency);
    const first = Math.min(MAX_PAGE, Math.max(1, query.limit));
    const text = query.text?.trim();
    // Per-location stock is left to lookups: 20 locations x 250 variants per product is too costly a page.
    const sf = this.storefronts.calls(market, context, signal, { withStock: false });
    type Page = { nodes: SfProduct[]; pageInfo: PageInfo; totalCount?: number };
    const page = text
      ? (await sf<{ search: Page }>(Q.SEARCH, { query: text, first, after, filters: productFilters(query) })).search
      : (await sf<{ products: Page }>(Q.BROWSE, { query: browseQuery(query), first, after })).products;
    return {
      products: page.nodes.map((p) => toCatalogProduct(p, this.storefrontUrl)),
      ...(page.pageInfo.hasNextPage &&
        page.pageInfo.endCursor && { nextPageToken: this.tokens.write(pageBinding(query), page.pageInfo.endCursor) }),
      ...(page.totalCount !== undefined && { totalCount: page.totalCount }),
    };
  }

  /** Product and variant gids through `nodes`, handles through `product(handle:)`, SKUs through the Admin API. */
  async lookup(ids: string[], signal?: AbortSignal, options: LookupOptions = {}): Promise<LookupResult[]> {
    const unique = [...new Set(ids)];
    const selected = options.selected ?? [];
    const sf = this.storefronts.calls(this.storefronts.market(), options.context, signal, {
      withStock: true,
      selected,
      withSelected: selected.length > 0,
    });
    const gids = unique.filter((id) => isGid('Product', id) || isGid('ProductVariant', id));
    const others = unique.filter((id) => !gids.includes(id));
    const byHandle = await this.byHandle(others, sf);
    // An id that is neither a gid nor a handle may be a SKU.
    const skus = others.filter((id) => !byHandle.has(id));
    const skuVariants = await this.bySku(skus, signal);
    const { products, variantProduct } = await this.nodes([...new Set([...gids, ...skuVariants.values()])], sf);
    for (const product of byHandle.values()) products.set(product.id, product);
    return this.results(unique, { products, variantProduct, byHandle, skuVariants });
  }

  /** The shop's local pickup locations (Storefront `locations`, every page). */
  async pickupLocations(signal?: AbortSignal): Promise<PickupLocation[]> {
    const sf = this.storefronts.calls(this.storefronts.market(), undefined, signal);
    const all: PickupLocation[] = [];
    let after: string | null = null;
    do {
      type Page = { locations: { pageInfo: PageInfo; nodes: SfLocation[] } };
      const page: Page = await sf<Page>(Q.LOCATIONS, { after });
      all.push(...page.locations.nodes.map(toPickupLocation));
      after = page.locations.pageInfo.hasNextPage ? page.locations.pageInfo.endCursor : null;
    } while (after);
    return all;
  }

  /** The product of each id that is a handle (ids that are none are SKUs, or unknown). */
  private async byHandle(handles: string[], sf: Storefront): Promise<Map<string, SfProduct>> {
    const found = await Promise.all(
      handles.map(async (handle) => [handle, (await sf<{ product: SfProduct | null }>(Q.PRODUCT_BY_HANDLE, { handle })).product] as const),
    );
    return new Map(found.flatMap(([handle, product]) => (product ? [[handle, product] as const] : [])));
  }

  /** The variant gid of each SKU (matched without regard to case), from the Admin API. */
  private async bySku(skus: string[], signal: AbortSignal | undefined): Promise<Map<string, string>> {
    type Found = { productVariants: { nodes: Array<{ id: string; sku: string | null }> } };
    const pages = await Promise.all(
      runs(skus, SKUS_PER_QUERY).map((run) =>
        this.client.admin<Found>(Q.VARIANTS_BY_SKU, { query: run.map((s) => `sku:${JSON.stringify(s)}`).join(' OR ') }, signal),
      ),
    );
    const variants = pages.flatMap((page) => page.productVariants.nodes);
    const skuVariants = new Map<string, string>();
    for (const sku of skus) {
      const variant = variants.find((v) => v.sku?.toLowerCase() === sku.toLowerCase());
      if (variant) skuVariants.set(sku, variant.id);
    }
    return skuVariants;
  }

  /** Products and variants by gid (`nodes`, 250 ids a call): each product, and the product of each variant. */
  private async nodes(nodeIds: string[], sf: Storefront): Promise<Pick<Reached, 'products' | 'variantProduct'>> {
    const pages = await Promise.all(runs(nodeIds, MAX_NODES).map((ids) => sf<{ nodes: LookupNode[] }>(Q.NODES, { ids })));
    const nodes = pages.flatMap((page) => page.nodes);
    const products = new Map<string, SfProduct>();
    const variantProduct = new Map<string, string>();
    for (const node of nodes) {
      if (node?.__typename === 'Product') products.set(node.id, node);
      if (node?.__typename === 'ProductVariant') {
        products.set(node.product.id, node.product);
        variantProduct.set(node.id, node.product.id);
      }
    }
    return { products, variantProduct };
  }

  /** One result per product reached, with every id that reached it, in the order of the ids. */
  private results(ids: string[], { products, variantProduct, byHandle, skuVariants }: Reached): LookupResult[] {
    const results = new Map<string, LookupResult>();
    const add = (id: string, productId: string, variantId: string | undefined) => {
      const sf = products.get(productId);
      if (!sf) return;
      const result = results.get(productId) ?? { product: toCatalogProduct(sf, this.storefrontUrl), inputs: [] };
      result.inputs.push(
        variantId ? { id, variantId, match: 'exact' } : { id, variantId: result.product.featuredVariantId, match: 'featured' },
      );
      results.set(productId, result);
    };
    for (const id of ids) {
      if (isGid('Product', id)) add(id, id, undefined);
      else if (isGid('ProductVariant', id)) add(id, variantProduct.get(id) ?? '', id);
      else {
        const product = byHandle.get(id);
        if (product) add(id, product.id, undefined);
        const variant = skuVariants.get(id);
        if (variant) add(id, variantProduct.get(variant) ?? '', variant);
      }
    }
    return [...results.values()];
  }
}
