/**
 * A store product (adapter contract) as the protocol's Product (spec part 1 §2.6): descriptions
 * as {plain}, prices as integer minor units, the option matrix, the chosen variants in order
 * with their lookup inputs and the members active extensions add (fulfillment). The product shape has no tags, so each variant
 * carries its own tags or else its product's; the vendor is the variant's seller.
 */
import type { CatalogProduct, CatalogVariant } from '../../../adapters/contract.js';
import type { Price, Product, SelectedOption, Variant } from '../../../schemas/catalog.js';
import { optionMatrix, type Selection } from './option-matrix.js';

export interface ProductView {
  /** Variants to show, in order. */
  variants: readonly CatalogVariant[];
  /** The selection option values are judged against (empty outside get_product). */
  selection?: Selection;
  /** get_product's `product.selected`. */
  selected?: readonly SelectedOption[];
  inputs?: ReadonlyMap<string, Variant['inputs']>;
  /** The members active extensions add, by variant id. */
  extensions?: ReadonlyMap<string, Partial<Variant>> | undefined;
}

function priceRange(product: CatalogProduct): Product['price_range'] {
  const prices = product.variants.map((v) => v.price);
  const min = prices.reduce((a, b) => (b.amount < a.amount ? b : a));
  const max = prices.reduce((a, b) => (b.amount > a.amount ? b : a));
  const price = (p: Price): Price => ({ amount: p.amount, currency: p.currency });
  return { min: price(min), max: price(max) };
}

function toVariant(product: CatalogProduct, variant: CatalogVariant, view: ProductView): Variant {
  const tags = variant.tags ?? product.tags;
  const inputs = view.inputs?.get(variant.id);
  const vendor = product.vendor;
  return {
    id: variant.id,
    ...(variant.sku && { sku: variant.sku }),
    title: variant.title,
    ...(variant.description && { description: { plain: variant.description } }),
    price: { amount: variant.price.amount, currency: variant.price.currency },
    availability: { available: variant.availability.available, status: variant.availability.status },
    options: variant.options.map((o) => ({ name: o.name, label: o.value })),
    ...(tags.length > 0 && { tags: [...tags] }),
    ...(vendor && { seller: { name: vendor.name, ...(vendor.url && { links: [{ type: 'website', url: vendor.url }] }) } }),
    ...(inputs && { inputs }),
    ...view.extensions?.get(variant.id),
  };
}

/** The product must have at least one variant (callers leave out those that have none to show). */
export function toProduct(product: CatalogProduct, view: ProductView): Product {
  return {
    id: product.id,
    ...(product.handle && { handle: product.handle }),
    title: product.title,
    ...(product.description && { description: { plain: product.description } }),
    ...(product.url && { url: product.url }),
    categories: product.categories.map((c) => ({ value: c.value, ...(c.taxonomy && { taxonomy: c.taxonomy }) })),
    price_range: priceRange(product),
    media: product.media.map((m) => ({ type: m.type, url: m.url, ...(m.altText && { alt_text: m.altText }) })),
    options: optionMatrix(product, view.selection ?? []),
    variants: view.variants.map((v) => toVariant(product, v, view)),
    ...(product.rating && { rating: { value: product.rating.value, scale_max: product.rating.scaleMax, count: product.rating.count } }),
    ...(product.metadata && { metadata: product.metadata }),
    ...(view.selected && { selected: view.selected.map((s) => ({ name: s.name, label: s.label })) }),
  };
}
