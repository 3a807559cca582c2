/**
 * A WooCommerce product (and its variations) as a catalog product:
 * - options are the attributes with `variation: true`, in the product's order;
 * - each variation is a variant; a variation attribute left empty means "any value", so the
 *   variation stands for one variant per value of that attribute; when two variations match the
 *   same combination, the first by menu order wins, as WooCommerce's own matching does
 *   (WC_Product_Data_Store_CPT::find_matching_product_variation);
 * - availability from stock_status, managed stock and backorders (`manage_stock: "parent"`
 *   reads the parent's), pre-orders from the WooCommerce Pre-Orders extension's meta, and
 *   discontinued from a tag the tenant names;
 * - prices from decimal strings to minor units of the store currency.
 */
import type { AvailabilityStatus, CatalogProduct, CatalogVariant, Media } from '../contract.js';
import { decimalToMinor } from './money.js';
import { encodeVariantId } from './variant-id.js';
import type { WcProduct, WcVariation } from './wc-shapes.js';

export interface MapOptions {
  currency: string;
  discontinuedTag: string;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#039': "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  rsquo: '’',
  lsquo: '‘',
};

/** Product descriptions are HTML; the catalog carries text. */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(
      /&(#?\w+);/g,
      (whole, name: string) => ENTITIES[name] ?? (name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : whole),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

const metaValue = (meta: Array<{ key: string; value: unknown }>, key: string) => meta.find((m) => m.key === key)?.value;

/** WooCommerce Pre-Orders: enabled on the product, release date as a unix timestamp. */
function preorderDate(product: WcProduct): string | undefined {
  if (metaValue(product.meta_data, '_wc_pre_orders_enabled') !== 'yes') return undefined;
  const at = Number(metaValue(product.meta_data, '_wc_pre_orders_availability_datetime'));
  return Number.isFinite(at) && at > 0 ? new Date(at * 1000).toISOString().slice(0, 10) : undefined;
}

interface Stock {
  manage_stock: boolean | 'parent';
  stock_quantity: number | null;
  stock_status: string;
  backorders: string;
}

function availability(product: WcProduct, stock: Stock, priced: boolean, options: MapOptions): CatalogVariant['availability'] {
  const discontinued = product.tags.some((t) => t.name.toLowerCase() === options.discontinuedTag.toLowerCase());
  if (discontinued) return { available: false, status: 'discontinued', quantity: 0 };
  if (!priced) return { available: false, status: 'out_of_stock', quantity: 0 };
  const own = stock.manage_stock === 'parent' ? product : stock;
  const managed = own.manage_stock === true;
  const quantity = managed ? Math.max(0, own.stock_quantity ?? 0) : null;
  const preorder = preorderDate(product);
  if (preorder) return { available: true, status: 'preorder', quantity, availableOn: preorder };
  const status: AvailabilityStatus =
    own.stock_status === 'instock' ? 'in_stock' : own.stock_status === 'onbackorder' ? 'backorder' : 'out_of_stock';
  if (status === 'in_stock') return { available: true, status, quantity };
  if (status === 'backorder') return { available: true, status, quantity: null };
  return { available: false, status, quantity: 0 };
}

const image = (img: { src: string; alt?: string }): Media => ({ type: 'image', url: img.src, ...(img.alt && { altText: img.alt }) });

/** Every combination an "any" variation stands for, as value lists in attribute order. */
function combinations(axes: Array<{ name: string; values: string[] }>, fixed: Map<string, string>): string[][] {
  return axes.reduce<string[][]>(
    (acc, axis) => {
      const value = fixed.get(axis.name);
      const values = value ? [value] : axis.values;
      return acc.flatMap((prefix) => values.map((v) => [...prefix, v]));
    },
    [[]],
  );
}

export function toCatalogProduct(product: WcProduct, variations: WcVariation[], options: MapOptions): CatalogProduct {
  const axes = product.attributes
    .filter((a) => a.variation && product.type === 'variable')
    .map((a) => ({ name: a.name, values: a.options }));
  const base = {
    productId: String(product.id),
    url: product.permalink,
    requiresShipping: !product.virtual,
  };
  const variants: CatalogVariant[] = [];
  if (axes.length === 0) {
    const price = decimalToMinor(product.price, options.currency, `the price of product ${product.id}`);
    variants.push({
      ...base,
      id: String(product.id),
      ...(product.sku && { sku: product.sku }),
      title: product.name,
      price: { amount: price ?? 0, currency: options.currency },
      options: [],
      availability: availability(product, product, price !== null, options),
    });
  } else {
    const taken = new Set<string>();
    for (const variation of [...variations].sort((a, b) => a.menu_order - b.menu_order)) {
      const fixed = new Map(variation.attributes.filter((a) => a.option !== '').map((a) => [a.name, a.option]));
      const anyAxes = axes.filter((axis) => !fixed.get(axis.name));
      const price = decimalToMinor(variation.price, options.currency, `the price of variation ${variation.id}`);
      for (const values of combinations(axes, fixed)) {
        const key = values.join('\u0000');
        if (taken.has(key)) continue;
        taken.add(key);
        const anyValues = anyAxes.map((axis) => values[axes.indexOf(axis)]!);
        variants.push({
          ...base,
          id: encodeVariantId(variation.id, anyValues),
          ...(variation.sku && anyValues.length === 0 && { sku: variation.sku }),
          title: values.join(' / '),
          price: { amount: price ?? 0, currency: options.currency },
          options: axes.map((axis, i) => ({ name: axis.name, value: values[i]! })),
          availability: availability(product, variation, price !== null, options),
          requiresShipping: !variation.virtual,
          url: variation.permalink,
          ...(variation.image && { media: [image(variation.image)] }),
        });
      }
    }
  }
  const media = [...product.images.map(image)];
  for (const v of variants) for (const m of v.media ?? []) if (!media.some((x) => x.url === m.url)) media.push(m);
  const defaults = new Map(product.default_attributes.map((a) => [a.name, a.option]));
  const featured =
    (defaults.size > 0
      ? variants.find((v) => v.options.every((o) => !defaults.has(o.name) || defaults.get(o.name) === o.value) && v.availability.available)
      : undefined) ??
    variants.find((v) => v.availability.available) ??
    variants[0];
  const rating = Number(product.average_rating);
  return {
    id: String(product.id),
    handle: product.slug,
    title: product.name,
    description: plainText(product.short_description || product.description),
    url: product.permalink,
    categories: product.categories.map((c) => ({ value: c.name, taxonomy: 'merchant' })),
    media,
    options: axes,
    variants,
    featuredVariantId: featured?.id ?? String(product.id),
    ...(product.rating_count > 0 && Number.isFinite(rating) && { rating: { value: rating, scaleMax: 5, count: product.rating_count } }),
    tags: product.tags.map((t) => t.name),
  };
}
