/**
 * The catalog from catalog.yaml merged with products.csv (title, price, image) and inventory.csv
 * (stock), checked for consistency: every CSV product described once, no field given twice, option
 * combinations that exist at most once.
 */
import type { CatalogProduct, CatalogVariant, Media } from '../../contract.js';
import type { StoreVariant } from '../model.js';
import { availabilityOf } from '../stock.js';
import type { CatalogFile, CatalogFileProduct } from './catalog-file.js';
import type { InventoryRow, ProductRow } from './csv-files.js';
import { fileError } from './read-file.js';

export interface CatalogSources {
  catalog: { file: string; data: CatalogFile };
  products: { file: string; rows: ProductRow[] };
  inventory: { file: string; rows: InventoryRow[] };
  currency: string;
  storefrontUrl: string;
  originIds: Set<string>;
}

interface Resolved {
  title: string;
  price?: number;
  stock?: number | 'untracked';
  image?: { url: string; alt?: string };
}

/** Title, price, image and stock from the CSVs for a CSV product, else from the YAML entry. */
function resolveBase(entry: CatalogFileProduct, at: string, src: CatalogSources, csv?: ProductRow): Resolved {
  const { file } = src.catalog;
  if (csv) {
    for (const field of ['title', 'price', 'image', 'stock'] as const) {
      if (entry[field] !== undefined)
        throw fileError(file, `${at}.${field}`, `repeats ${src.products.file} or ${src.inventory.file}: remove it`);
    }
    const stockRow = src.inventory.rows.find((r) => r.product_id === entry.id);
    if (!stockRow) throw fileError(src.inventory.file, '$', `has no row for product "${entry.id}"`);
    return {
      title: csv.title,
      price: Number(csv.price),
      stock: Number(stockRow.quantity),
      image: { url: csv.image_url, ...(entry.image_alt && { alt: entry.image_alt }) },
    };
  }
  if (!entry.title) throw fileError(file, `${at}.title`, 'is required for a product that is not in products.csv');
  if (!entry.image) throw fileError(file, `${at}.image`, 'is required for a product that is not in products.csv');
  if (!entry.variants && (entry.price === undefined || entry.stock === undefined)) {
    throw fileError(file, `${at}`, 'needs price and stock (or options with variants)');
  }
  return {
    title: entry.title,
    ...(entry.price !== undefined && { price: entry.price }),
    ...(entry.stock !== undefined && { stock: entry.stock }),
    image: entry.image,
  };
}

/** A URL of the data files relative to the storefront (`images/roses.svg`, `./`) made absolute; absolute URLs stay. */
const onStorefront = (storefrontUrl: string, url: string) => new URL(url, `${storefrontUrl}/`).href;

const storefrontVendor = <V extends { url?: string } | undefined>(vendor: V, storefrontUrl: string): V =>
  vendor?.url === undefined ? vendor : { ...vendor, url: onStorefront(storefrontUrl, vendor.url) };

const media = (image: { url: string; alt?: string }, storefrontUrl: string): Media => ({
  type: 'image',
  url: onStorefront(storefrontUrl, image.url),
  ...(image.alt && { altText: image.alt }),
});

interface VariantSpec {
  id: string;
  sku?: string;
  price: number;
  stock: number | 'untracked';
  options: Array<{ name: string; value: string }>;
  image?: { url: string; alt?: string };
}

function variantSpecs(entry: CatalogFileProduct, at: string, base: Resolved, file: string): VariantSpec[] {
  if (!entry.options || !entry.variants) {
    if (entry.options || entry.variants) throw fileError(file, at, 'needs both options and variants, or neither');
    return [{ id: entry.id, ...(entry.sku && { sku: entry.sku }), price: base.price!, stock: base.stock!, options: [] }];
  }
  if (entry.sku || base.price !== undefined || base.stock !== undefined)
    throw fileError(file, at, 'with variants keeps sku, price and stock on each variant');
  const seen = new Set<string>();
  return entry.variants.map((v, i) => {
    const vat = `${at}.variants[${i}]`;
    const names = Object.keys(v.options);
    for (const axis of entry.options!) {
      const value = v.options[axis.name];
      if (value === undefined) throw fileError(file, `${vat}.options`, `needs a value for "${axis.name}"`);
      if (!axis.values.includes(value))
        throw fileError(file, `${vat}.options["${axis.name}"]`, `must be one of ${JSON.stringify(axis.values)}`);
    }
    if (names.length !== entry.options!.length) throw fileError(file, `${vat}.options`, 'names an option the product does not have');
    const combination = entry.options!.map((axis) => v.options[axis.name]).join('\u0000');
    if (seen.has(combination)) throw fileError(file, `${vat}.options`, 'repeats the combination of another variant');
    seen.add(combination);
    return {
      id: v.id,
      ...(v.sku && { sku: v.sku }),
      price: v.price,
      stock: v.stock,
      options: entry.options!.map((axis) => ({ name: axis.name, value: v.options[axis.name]! })),
      ...(v.image && { image: v.image }),
    };
  });
}

export function buildCatalog(src: CatalogSources): { products: CatalogProduct[]; variants: StoreVariant[] } {
  const { file, data } = src.catalog;
  const csvById = new Map(src.products.rows.map((r) => [r.id, r]));
  const described = new Set<string>();
  const products: CatalogProduct[] = [];
  const variants: StoreVariant[] = [];

  data.products.forEach((entry, index) => {
    const at = `$.products[${index}]`;
    if (described.has(entry.id)) throw fileError(file, `${at}.id`, `"${entry.id}" is described twice`);
    described.add(entry.id);
    if (entry.ships_from && !src.originIds.has(entry.ships_from))
      throw fileError(file, `${at}.ships_from`, `"${entry.ships_from}" is not an origin of shipping.yaml`);
    if (!entry.digital && !entry.ships_from) throw fileError(file, `${at}.ships_from`, 'is required for a product that is not digital');
    const base = resolveBase(entry, at, src, csvById.get(entry.id));
    const specs = variantSpecs(entry, at, base, file);
    const url = `${src.storefrontUrl}/products/${entry.handle}`;
    const product: CatalogProduct = {
      id: entry.id,
      handle: entry.handle,
      title: base.title,
      description: entry.description,
      url,
      categories: entry.categories.map((c) => ({ value: c.value, ...(c.taxonomy && { taxonomy: c.taxonomy }) })),
      media: [base.image!, ...specs.flatMap((s) => (s.image ? [s.image] : []))].map((image) => media(image, src.storefrontUrl)),
      options: (entry.options ?? []).map((o) => ({ name: o.name, values: [...o.values] })),
      variants: [],
      featuredVariantId: '',
      tags: entry.tags,
      vendor: storefrontVendor(entry.vendor ?? data.vendor, src.storefrontUrl),
      ...(entry.rating && { rating: { value: entry.rating.value, scaleMax: entry.rating.scale_max, count: entry.rating.count } }),
    };
    for (const spec of specs) {
      const rules = {
        stock: spec.stock === 'untracked' ? null : spec.stock,
        backorder: entry.backorder ?? false,
        discontinued: entry.discontinued ?? false,
        ...(entry.preorder && { preorderOn: entry.preorder.ships_on }),
      };
      const variant: CatalogVariant = {
        id: spec.id,
        productId: entry.id,
        ...(spec.sku && { sku: spec.sku }),
        title: spec.options.length ? spec.options.map((o) => o.value).join(' / ') : base.title,
        price: { amount: spec.price, currency: src.currency },
        options: spec.options,
        availability: availabilityOf(rules),
        requiresShipping: !entry.digital,
        url: `${url}?variant=${spec.id}`,
        ...(spec.image && { media: [media(spec.image, src.storefrontUrl)] }),
      };
      product.variants.push(variant);
      variants.push({
        variant,
        product,
        ...rules,
        ...(entry.ships_from && { originId: entry.ships_from }),
        categories: new Set(entry.categories.map((c) => c.value.toLowerCase())),
      });
    }
    if (entry.featured_variant && !specs.some((s) => s.id === entry.featured_variant)) {
      throw fileError(file, `${at}.featured_variant`, `"${entry.featured_variant}" is not one of its variants`);
    }
    product.featuredVariantId =
      entry.featured_variant ?? (product.variants.find((v) => v.availability.available) ?? product.variants[0]!).id;
    products.push(product);
  });

  for (const row of src.products.rows) {
    if (!described.has(row.id)) throw fileError(file, '$.products', `has no entry for "${row.id}" of ${src.products.file}`);
  }
  return { products, variants };
}
