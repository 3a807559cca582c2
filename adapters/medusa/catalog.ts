/**
 * The catalog from Medusa's Store API: products of the publishable key's sales channel with the
 * region's calculated prices and the channel's inventory (`+variants.inventory_quantity`), mapped
 * to the contract's products. Variant ids and SKUs are resolved through the Admin API's variant
 * list (the Store API has no variant filter), then read from the Store API like any product.
 */
import {
  type AvailabilityStatus,
  type CatalogProduct,
  type CatalogVariant,
  type LookupResult,
  type SearchPage,
  type SearchQuery,
} from '../contract.js';
import { SignedCursors } from '../kit/signed-cursor.js';
import { list, type MedusaClient } from './client.js';
import { toMinor } from './money.js';
import type { MedusaOption, MedusaProduct, MedusaVariant } from './shapes.js';

/** The option Medusa gives a product without variants of its own (its admin's "default option"). */
const DEFAULT_OPTION = 'Default option';

const PRODUCT_FIELDS = '*variants.calculated_price,+variants.inventory_quantity,*categories,+metadata';

/** A variant as the Admin API's variant list answers it (`fields=id,sku,product_id`). */
interface VariantRow {
  id: string;
  sku?: string | null;
  product_id: string;
}

export interface CatalogScope {
  regionId: string;
  currency: string;
  storefrontUrl: string;
}

function availability(variant: MedusaVariant): CatalogVariant['availability'] {
  if (!variant.manage_inventory) return { available: true, status: 'in_stock', quantity: null };
  const quantity = Math.max(0, Number(variant.inventory_quantity ?? 0));
  if (quantity > 0) return { available: true, status: 'in_stock', quantity };
  const status: AvailabilityStatus = variant.allow_backorder ? 'backorder' : 'out_of_stock';
  return { available: status === 'backorder', status, quantity: variant.allow_backorder ? null : 0 };
}

function toProduct(product: MedusaProduct, scope: CatalogScope): CatalogProduct {
  const optionTitles = new Map<string, string>();
  for (const option of product.options ?? []) optionTitles.set(option.id, option.title);
  const axes = [...optionTitles.values()];
  const axisOrder = (name: string) => axes.indexOf(name);
  const simple = (product.options ?? []).length <= 1 && (product.options?.[0]?.title ?? DEFAULT_OPTION) === DEFAULT_OPTION;
  const url = product.handle ? `${scope.storefrontUrl}/products/${product.handle}` : undefined;
  const variants: CatalogVariant[] = (product.variants ?? []).map((variant) => {
    const price = variant.calculated_price;
    if (!price || price.calculated_amount === null || price.calculated_amount === undefined)
      throw new TypeError(`variant ${variant.id} has no price in the region`);
    return {
      id: variant.id,
      productId: product.id,
      ...(variant.sku && { sku: variant.sku }),
      title: simple ? product.title : (variant.title ?? product.title),
      price: { amount: toMinor(price.calculated_amount, scope.currency), currency: scope.currency },
      options: simple
        ? []
        : (variant.options ?? [])
            .map((o) => ({ name: optionTitles.get(o.option_id ?? '') ?? o.option?.title ?? '', value: o.value }))
            // Medusa keeps no order of option values on a variant: the product's axis order, for every variant alike.
            .sort((a, b) => axisOrder(a.name) - axisOrder(b.name)),
      availability: availability(variant),
      requiresShipping: true,
      ...(url && { url }),
    };
  });
  const media = [
    ...(product.images ?? []).map((i) => ({ type: 'image' as const, url: i.url })),
    ...(product.thumbnail && !(product.images ?? []).some((i) => i.url === product.thumbnail)
      ? [{ type: 'image' as const, url: product.thumbnail }]
      : []),
  ];
  const featured = variants.find((v) => v.availability.available) ?? variants[0];
  return {
    id: product.id,
    ...(product.handle && { handle: product.handle }),
    title: product.title,
    ...(product.description && { description: product.description }),
    ...(url && { url }),
    categories: (product.categories ?? []).map((c) => ({ value: c.name, taxonomy: 'merchant' })),
    media,
    options: simple
      ? []
      : (product.options ?? []).map((o) => ({
          name: o.title,
          // Display order: the order the variants use them in, then any other value.
          values: orderedValues(o, variants),
        })),
    variants,
    featuredVariantId: featured?.id ?? '',
    tags: (product.tags ?? []).map((t) => t.value),
  };
}

function orderedValues(option: MedusaOption, variants: CatalogVariant[]): string[] {
  const values: string[] = [];
  for (const v of variants) for (const o of v.options) if (o.name === option.title && !values.includes(o.value)) values.push(o.value);
  for (const value of option.values ?? []) if (!values.includes(value.value)) values.push(value.value);
  return values;
}

/** A page token: the offset of the next page, bound to the query's filters and page size. */
const binding = ({ text, categories, price, custom }: SearchQuery, limit: number) => [text, categories, price, custom, limit];
const offset = (value: unknown) => (Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined);

export class MedusaCatalog {
  private readonly pageTokens: SignedCursors<number>;

  /** `tokenSecret` keys the page tokens (the secret API key: the same on every replica). */
  constructor(
    private readonly client: MedusaClient,
    private readonly scope: CatalogScope,
    tokenSecret: string,
  ) {
    this.pageTokens = new SignedCursors(tokenSecret, 'medusa-page-token', offset);
  }

  private async products(
    query: Record<string, unknown>,
    what: string,
    signal?: AbortSignal,
  ): Promise<{ products: MedusaProduct[]; count: number }> {
    const answer = await this.client.call('store', '/store/products', what, {
      query: { ...query, region_id: this.scope.regionId, fields: PRODUCT_FIELDS },
      signal,
    });
    const products = list<MedusaProduct>(answer, 'products', what);
    return { products, count: Number(answer.count ?? products.length) };
  }

  async search(query: SearchQuery, signal?: AbortSignal): Promise<SearchPage> {
    const limit = query.limit;
    const offset = query.pageToken ? this.pageTokens.read(query.pageToken, binding(query, limit)) : 0;
    const categoryIds = query.categories?.length ? await this.categoryIds(query.categories, signal) : undefined;
    if (categoryIds && categoryIds.length === 0) return { products: [], totalCount: 0 };
    const page = await this.products(
      { limit, offset, ...(query.text && { q: query.text }), ...(categoryIds && { category_id: categoryIds }), order: 'created_at' },
      'product search',
      signal,
    );
    let products = page.products.map((p) => toProduct(p, this.scope));
    const price = query.price;
    if (price) {
      // Medusa's Store API has no price filter: the page is filtered here (a page may come out short).
      products = products
        .map((p) => ({
          ...p,
          variants: p.variants.filter((v) => (price.min ?? 0) <= v.price.amount && v.price.amount <= (price.max ?? Infinity)),
        }))
        .filter((p) => p.variants.length > 0);
    }
    const more = offset + page.products.length < page.count;
    const nextPageToken = more ? this.pageTokens.write(binding(query, limit), offset + limit) : undefined;
    return { products, ...(nextPageToken && { nextPageToken }), ...(!price && { totalCount: page.count }) };
  }

  /** Variants by id and by SKU, from the Admin API (the Store API cannot filter variants). */
  private async variants(ids: string[], skus: string[], signal?: AbortSignal): Promise<VariantRow[]> {
    const answer = await this.client.call('admin', '/admin/product-variants', 'variant lookup', {
      query: {
        $or: [...(ids.length ? [{ id: ids }] : []), ...(skus.length ? [{ sku: skus }] : [])],
        fields: 'id,sku,product_id',
        limit: ids.length + skus.length,
      },
      signal,
    });
    return list<VariantRow>(answer, 'variants', 'variant lookup');
  }

  private async categoryIds(names: string[], signal?: AbortSignal): Promise<string[]> {
    const answer = await this.client.call('store', '/store/product-categories', 'category list', {
      query: { limit: 1000, fields: 'id,name' },
      signal,
    });
    const wanted = new Set(names.map((n) => n.toLowerCase()));
    return list<{ id: string; name: string }>(answer, 'product_categories', 'category list')
      .filter((c) => wanted.has(c.name.toLowerCase()))
      .map((c) => c.id);
  }

  /**
   * Product ids, variant ids, SKUs and handles; unknown ids are left out. Medusa's ids say what
   * they name (`prod_…`, `variant_…`), so each kind of id costs one call, and only when present.
   */
  async lookup(ids: string[], signal?: AbortSignal): Promise<LookupResult[]> {
    const productIds = ids.filter((id) => id.startsWith('prod_'));
    const variantIds = ids.filter((id) => id.startsWith('variant_'));
    const keys = ids.filter((id) => !id.startsWith('prod_') && !id.startsWith('variant_'));
    const handles = keys.filter((id) => /^[a-z0-9][a-z0-9-]*$/.test(id));
    const [byId, variantRows, ...byHandle] = await Promise.all([
      productIds.length ? this.products({ id: productIds, limit: productIds.length }, 'product lookup', signal) : { products: [] },
      variantIds.length || keys.length ? this.variants(variantIds, keys, signal) : [],
      ...handles.map((handle) => this.products({ handle, limit: 1 }, 'product lookup by handle', signal)),
    ]);
    const found = new Map<string, MedusaProduct>();
    for (const p of [...byId.products, ...byHandle.flatMap((page) => page.products)]) found.set(p.id, p);
    const missing = [...new Set(variantRows.map((v) => v.product_id))].filter((id) => !found.has(id));
    if (missing.length > 0)
      for (const p of (await this.products({ id: missing, limit: missing.length }, 'product lookup', signal)).products) found.set(p.id, p);

    const results = new Map<string, LookupResult>();
    const entry = (product: MedusaProduct) => {
      let result = results.get(product.id);
      if (!result) results.set(product.id, (result = { product: toProduct(product, this.scope), inputs: [] }));
      return result;
    };
    for (const id of ids) {
      const product =
        (id.startsWith('prod_') && found.get(id)) || (handles.includes(id) && [...found.values()].find((p) => p.handle === id));
      if (product) {
        const result = entry(product);
        result.inputs.push({ id, variantId: result.product.featuredVariantId, match: 'featured' });
        continue;
      }
      const row = variantRows.find((v) => v.id === id) ?? variantRows.find((v) => v.sku === id);
      const owner = row && found.get(row.product_id);
      // A variant of a product outside the key's sales channel is not in the catalog.
      if (owner) entry(owner).inputs.push({ id, variantId: row.id, match: 'exact' });
    }
    return [...results.values()];
  }
}
