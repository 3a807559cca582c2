/**
 * Storefront catalog: products, variants and locations presented as Shopify objects, and the
 * queries that reach them (search, products, product, nodes, locations). Archived products (the
 * demo store's discontinued ones) are not on the Storefront, as on Shopify. A product without
 * options has Shopify's single "Title" option with the "Default Title" value.
 */
import type { CatalogProduct, CatalogVariant, Media, SearchQuery } from '../../adapters/contract.js';
import { matching as searchProducts } from '../../adapters/memory/search.js';
import { currencyExponent } from '../../adapters/kit/money.js';
import { ArgumentError, connection, gid, money, type ConnectionArgs } from './graph.js';
import type { Market, PricedStore, ShopData } from './shop-data.js';
import { encodeVariants } from './variant-encoding.js';

export interface CatalogContext {
  shop: ShopData;
  market: Market;
  store: PricedStore;
  /** The language texts are answered in (translations.ts); absent: the shop's default. */
  language?: string;
}

/** A product text in the context's language, else the shop's own. */
const text = (ctx: CatalogContext, p: CatalogProduct, field: 'title' | 'description') =>
  (ctx.language && ctx.shop.translations[ctx.language]?.[p.id]?.[field]) || p[field];

const DEFAULT_OPTION = { name: 'Title', value: 'Default Title' };
const EPOCH = '2026-01-05T09:00:00Z';

const image = (m: Media | undefined) =>
  m && m.type === 'image' ? { id: null, url: () => m.url, altText: m.altText ?? null, width: 1024, height: 1024, thumbhash: null } : null;

export const visible = (p: CatalogProduct) => p.variants.some((v) => v.availability.status !== 'discontinued');

/** Location stock of a variant: tracked per location, untracked everywhere. */
function storeAvailability(ctx: CatalogContext, variant: CatalogVariant) {
  if (!variant.requiresShipping) return [];
  const source = ctx.store.data.variants.get(variant.id)!;
  return ctx.store.data.locations.map((l) => {
    const quantity = source.stock === null ? 0 : (l.stock.get(variant.id) ?? 0);
    return {
      available: source.stock === null || quantity > 0,
      quantityAvailable: quantity,
      pickUpTime: `Usually ready in ${l.readyWithinHours} hours`,
      location: locationNode(ctx, l.location.id),
    };
  });
}

function locationNode(ctx: CatalogContext, locationId: string) {
  const { location } = ctx.store.data.locations.find((l) => l.location.id === locationId)!;
  const a = location.address;
  return {
    __typename: 'Location',
    id: ctx.shop.ids.gid('Location', location.id),
    name: location.name,
    address: {
      address1: a.streetAddress ?? null,
      address2: null,
      city: a.locality ?? null,
      provinceCode: a.region ?? null,
      province: a.region ?? null,
      countryCode: a.country ?? null,
      country: a.country ?? null,
      zip: a.postalCode ?? null,
      phone: null,
      latitude: null,
      longitude: null,
      formatted: [a.streetAddress, `${a.locality} ${a.region} ${a.postalCode}`, a.country].filter(Boolean),
    },
    metafield: () => null,
    metafields: ({ identifiers }: { identifiers: unknown[] }) => identifiers.map(() => null),
  };
}

export function variantNode(ctx: CatalogContext, variant: CatalogVariant) {
  const source = ctx.store.data.variants.get(variant.id)!;
  const { status } = variant.availability;
  const options = variant.options.length ? variant.options : [DEFAULT_OPTION];
  return {
    __typename: 'ProductVariant',
    id: ctx.shop.ids.gid('ProductVariant', variant.id),
    title: variant.options.length ? variant.title : DEFAULT_OPTION.value,
    sku: variant.sku ?? null,
    barcode: null,
    price: money(variant.price.amount, ctx.market.currency),
    compareAtPrice: null,
    unitPrice: null,
    availableForSale: variant.availability.available,
    currentlyNotInStock: status === 'backorder',
    quantityAvailable: source.stock === null ? 0 : Math.max(0, source.stock),
    requiresShipping: variant.requiresShipping,
    taxable: true,
    weight: 0,
    weightUnit: 'KILOGRAMS',
    selectedOptions: options,
    image: image(variant.media?.[0]),
    product: () => productNode(ctx, source.product),
    storeAvailability: (args: ConnectionArgs) => connection(storeAvailability(ctx, variant), args),
    metafield: () => null,
    metafields: ({ identifiers }: { identifiers: unknown[] }) => identifiers.map(() => null),
  };
}

type SelectedOption = { name: string; value: string };

/** The variant with exactly these option values (Shopify's `variantBySelectedOptions`). */
function variantByOptions(p: CatalogProduct, wanted: SelectedOption[], ignoreUnknown: boolean, caseInsensitive: boolean) {
  const same = (a: string, b: string) => (caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b);
  const axes = p.options.length ? p.options.map((o) => o.name) : [DEFAULT_OPTION.name];
  const known = wanted.filter((w) => axes.some((a) => same(a, w.name)));
  if (!ignoreUnknown && known.length !== wanted.length) return undefined;
  return p.variants.find((v) => {
    const options = v.options.length ? v.options : [DEFAULT_OPTION];
    return (
      known.length > 0 &&
      known.every((w) => options.some((o) => same(o.name, w.name) && same(o.value, w.value))) &&
      known.length === axes.length
    );
  });
}

function productNode(ctx: CatalogContext, p: CatalogProduct) {
  const variants = p.variants.filter((v) => v.availability.status !== 'discontinued');
  const axes = p.options.length ? p.options : [{ name: DEFAULT_OPTION.name, values: [DEFAULT_OPTION.value] }];
  const indices = (v: CatalogVariant) => (v.options.length ? p.options.map((axis, i) => axis.values.indexOf(v.options[i]!.value)) : [0]);
  const prices = variants.map((v) => v.price.amount);
  const merchant = p.categories.filter((c) => c.taxonomy === 'merchant');
  const google = p.categories.find((c) => c.taxonomy === 'google_product_category');
  const firstAvailable =
    variants.find((v) => v.id === p.featuredVariantId && v.availability.available) ??
    variants.find((v) => v.availability.available) ??
    variants[0];
  const node = (v: CatalogVariant | undefined) => (v ? variantNode(ctx, v) : null);
  const source = ctx.store.data.variants;
  return {
    __typename: 'Product',
    id: ctx.shop.ids.gid('Product', p.id),
    handle: p.handle,
    title: text(ctx, p, 'title'),
    description: () => text(ctx, p, 'description') ?? '',
    descriptionHtml: `<p>${(text(ctx, p, 'description') ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`,
    vendor: p.vendor?.name ?? '',
    productType: merchant[0]?.value ?? '',
    tags: [...p.tags, ...merchant.slice(1).map((c) => c.value)],
    category: google
      ? {
          id: gid('TaxonomyCategory', google.value.toLowerCase().replace(/[^a-z0-9]+/g, '-')),
          name: google.value.split(' > ').at(-1),
          ancestors: [],
        }
      : null,
    onlineStoreUrl: p.url ?? null,
    availableForSale: variants.some((v) => v.availability.available),
    isGiftCard: false,
    requiresSellingPlan: false,
    createdAt: EPOCH,
    updatedAt: EPOCH,
    publishedAt: EPOCH,
    totalInventory: variants.reduce((s, v) => s + Math.max(0, source.get(v.id)!.stock ?? 0), 0),
    trackingParameters: null,
    seo: { title: null, description: null },
    featuredImage: image(p.media[0]),
    images: (args: ConnectionArgs) => connection(p.media.map(image).filter(Boolean), args),
    options: ({ first }: { first?: number | null }) =>
      axes.slice(0, first ?? undefined).map((axis, i) => ({
        id: gid('ProductOption', `${ctx.shop.ids.gid('Product', p.id).split('/').at(-1)}${i + 1}`),
        name: axis.name,
        values: axis.values,
        optionValues: axis.values.map((value, j) => ({
          id: gid('ProductOptionValue', `${ctx.shop.ids.gid('Product', p.id).split('/').at(-1)}${i + 1}${j + 1}`),
          name: value,
          swatch: null,
          firstSelectableVariant: node(
            variants.find((v) => indices(v)[i] === j && v.availability.available) ?? variants.find((v) => indices(v)[i] === j),
          ),
        })),
      })),
    variants: (args: ConnectionArgs) =>
      connection(
        variants.map((v) => variantNode(ctx, v)),
        args,
      ),
    variantsCount: { count: variants.length, precision: 'EXACT' },
    priceRange: {
      minVariantPrice: money(Math.min(...prices), ctx.market.currency),
      maxVariantPrice: money(Math.max(...prices), ctx.market.currency),
    },
    compareAtPriceRange: { minVariantPrice: money(0, ctx.market.currency), maxVariantPrice: money(0, ctx.market.currency) },
    encodedVariantExistence: encodeVariants(variants.map(indices)),
    encodedVariantAvailability: encodeVariants(variants.filter((v) => v.availability.available).map(indices)),
    selectedOrFirstAvailableVariant: (args: { selectedOptions?: SelectedOption[] | null; caseInsensitiveMatch?: boolean }) =>
      node(
        (args.selectedOptions?.length ? variantByOptions(p, args.selectedOptions, true, !!args.caseInsensitiveMatch) : undefined) ??
          firstAvailable,
      ),
    variantBySelectedOptions: (args: {
      selectedOptions: SelectedOption[];
      ignoreUnknownOptions?: boolean;
      caseInsensitiveMatch?: boolean;
    }) => node(variantByOptions(p, args.selectedOptions, !!args.ignoreUnknownOptions, !!args.caseInsensitiveMatch)),
    collections: (args: ConnectionArgs) => connection([], args),
    metafield: () => null,
    metafields: ({ identifiers }: { identifiers: unknown[] }) => identifiers.map(() => null),
  };
}

/** Decimal major units (Storefront price filters are Floats) to minor units of the market. */
const minor = (value: number, currency: string) => Math.round(value * 10 ** currencyExponent(currency));

interface ProductFilterInput {
  available?: boolean | null;
  price?: { min?: number | null; max?: number | null } | null;
  productType?: string | null;
  tag?: string | null;
  productVendor?: string | null;
}

/** Product filters as Shopify combines them: values of one filter are ORed, filters are ANDed. */
function filterQuery(
  ctx: CatalogContext,
  filters: ProductFilterInput[],
): Omit<SearchQuery, 'limit'> & { tags?: string[]; vendors?: string[] } {
  const currency = ctx.market.currency;
  const query: Omit<SearchQuery, 'limit'> & { tags?: string[]; vendors?: string[] } = {};
  for (const f of filters) {
    if (f.available != null) query.custom = { available: f.available };
    if (f.price)
      query.price = {
        currency,
        ...(f.price.min != null && { min: minor(f.price.min, currency) }),
        ...(f.price.max != null && { max: minor(f.price.max, currency) }),
      };
    if (f.productType) query.categories = [...(query.categories ?? []), f.productType];
    if (f.tag) query.tags = [...(query.tags ?? []), f.tag.toLowerCase()];
    if (f.productVendor) query.vendors = [...(query.vendors ?? []), f.productVendor.toLowerCase()];
  }
  return query;
}

/** Every visible product matching, in relevance order (the demo engine's search). */
function matching(ctx: CatalogContext, query: ReturnType<typeof filterQuery>): CatalogProduct[] {
  const { tags, vendors, ...rest } = query;
  return searchProducts(ctx.store.data, ctx.store.index, rest).filter(
    (p) =>
      visible(p) &&
      (!tags || p.tags.some((t) => tags.includes(t.toLowerCase()))) &&
      (!vendors || vendors.includes((p.vendor?.name ?? '').toLowerCase())),
  );
}

/**
 * The Storefront `products(query:)` search syntax, for the fields the simulator searches:
 * `available_for_sale:true`, `product_type:'X'`, `tag:'X'`, `vendor:'X'`, `variants.price:>=N` / `<=N`,
 * joined with AND, alternatives of one field in parentheses with OR; words search the text. A term
 * on another field is left out: "if an invalid field is specified, the query is ignored and all
 * results are returned" (https://shopify.dev/docs/api/usage/search-syntax).
 */
function parseProductsQuery(ctx: CatalogContext, text: string | null | undefined): ReturnType<typeof filterQuery> {
  const filters: ProductFilterInput[] = [];
  const words: string[] = [];
  for (const clause of (text ?? '').split(/\s+AND\s+/).filter(Boolean)) {
    for (const term of clause.replace(/^\((.*)\)$/, '$1').split(/\s+OR\s+/)) {
      const m = /^([a-z_.]+):(>=|<=)?(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(\S+))$/.exec(term.trim());
      if (!m) {
        words.push(term);
        continue;
      }
      const [, field, op, q1, q2, bare] = m;
      const value = (q1 ?? q2 ?? bare ?? '').replace(/\\(.)/g, '$1');
      if (field === 'available_for_sale') filters.push({ available: value === 'true' });
      else if (field === 'product_type') filters.push({ productType: value });
      else if (field === 'tag') filters.push({ tag: value });
      else if (field === 'vendor') filters.push({ productVendor: value });
      else if (field === 'variants.price') filters.push({ price: op === '<=' ? { max: Number(value) } : { min: Number(value) } });
      // Another field: left out (see above).
    }
  }
  const merged = filterQuery(ctx, filters);
  const prices = filters.flatMap((f) => (f.price ? [f.price] : []));
  if (prices.length > 1) {
    const min = prices.find((p) => p.min != null)?.min;
    const max = prices.find((p) => p.max != null)?.max;
    merged.price = filterQuery(ctx, [{ price: { min: min ?? null, max: max ?? null } }]).price!;
  }
  return { ...merged, ...(words.length && { text: words.join(' ') }) };
}

export function catalogQueries(ctx: CatalogContext) {
  const byGid = (value: string) => {
    const variantId = ctx.shop.ids.demoId('ProductVariant', value);
    if (variantId) {
      const variant = ctx.store.data.variants.get(variantId);
      return variant && visible(variant.product) ? variantNode(ctx, variant.variant) : null;
    }
    const productId = ctx.shop.ids.demoId('Product', value);
    const product = productId ? ctx.store.data.productsById.get(productId) : undefined;
    if (product) return visible(product) ? productNode(ctx, product) : null;
    const locationId = ctx.shop.ids.demoId('Location', value);
    return locationId ? locationNode(ctx, locationId) : null;
  };
  return {
    search: (args: ConnectionArgs & { query: string; productFilters?: ProductFilterInput[] | null; types?: string[] | null }) => {
      if (args.types && !args.types.includes('PRODUCT')) return { ...connection([], args), totalCount: 0, productFilters: [] };
      const found = matching(ctx, { ...filterQuery(ctx, args.productFilters ?? []), ...(args.query.trim() && { text: args.query }) });
      return {
        ...connection(
          found.map((p) => productNode(ctx, p)),
          args,
        ),
        totalCount: found.length,
        productFilters: [],
      };
    },
    products: (args: ConnectionArgs & { query?: string | null }) =>
      connection(
        matching(ctx, parseProductsQuery(ctx, args.query)).map((p) => productNode(ctx, p)),
        args,
      ),
    product: (args: { id?: string | null; handle?: string | null }) => {
      if (args.id) {
        const node = byGid(args.id);
        return node?.__typename === 'Product' ? node : null;
      }
      const product = args.handle ? ctx.store.data.productsByHandle.get(args.handle) : undefined;
      return product && visible(product) ? productNode(ctx, product) : null;
    },
    nodes: (args: { ids: string[] }) => {
      if (args.ids.length > 250) throw new ArgumentError('The maximum number of ids is 250');
      return args.ids.map(byGid);
    },
    node: (args: { id: string }) => byGid(args.id),
    locations: (args: ConnectionArgs) =>
      connection(
        ctx.store.data.locations.map((l) => locationNode(ctx, l.location.id)),
        args,
      ),
  };
}
