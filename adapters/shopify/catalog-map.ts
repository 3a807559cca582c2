/**
 * Storefront products as the contract's catalog: a product without options (Shopify's single
 * "Title" / "Default Title" option) is a simple product; availability comes from
 * `encodedVariantAvailability` when Shopify sends it (else `availableForSale`), backorder from
 * `currentlyNotInStock`; prices are exact minor units of the presentment currency. Per-location
 * stock comes from `storeAvailability` when the document asked for it (lookups). A product with
 * more variants than one page lists the first page plus, on product detail, the selected one
 * (`variantBySelectedOptions`).
 */
import type { AvailabilityStatus, CatalogProduct, CatalogVariant, Media } from '../contract.js';
import { money, type MoneyV2 } from './money.js';
import { decodeVariants } from './variant-encoding.js';

interface SfVariant {
  id: string;
  title: string;
  sku: string | null;
  availableForSale: boolean;
  currentlyNotInStock: boolean;
  quantityAvailable: number | null;
  requiresShipping: boolean;
  price: MoneyV2;
  selectedOptions: Array<{ name: string; value: string }>;
  image: { url: string; altText: string | null } | null;
  storeAvailability?: { nodes: Array<{ available: boolean; quantityAvailable: number; location: { id: string } }> };
}

export interface SfProduct {
  id: string;
  handle: string;
  title: string;
  description: string;
  vendor: string;
  productType: string;
  tags: string[];
  onlineStoreUrl: string | null;
  category: { name: string } | null;
  images: { nodes: Array<{ url: string; altText: string | null }> };
  options: Array<{ name: string; optionValues: Array<{ name: string }> }>;
  encodedVariantExistence: string | null;
  encodedVariantAvailability: string | null;
  selectedOrFirstAvailableVariant: { id: string } | null;
  variants: { nodes: SfVariant[] };
  /** Product detail with a selection: `variantBySelectedOptions`, null when no variant has those values. */
  selectedVariant?: SfVariant | null;
}

/** Shopify's stand-in option of a product without options. */
const isDefaultOption = (options: SfProduct['options']) =>
  options.length === 1 &&
  options[0]!.name === 'Title' &&
  options[0]!.optionValues.length === 1 &&
  options[0]!.optionValues[0]!.name === 'Default Title';

const media = (image: { url: string; altText: string | null }): Media => ({
  type: 'image',
  url: image.url,
  ...(image.altText && { altText: image.altText }),
});

function status(v: SfVariant, available: boolean): AvailabilityStatus {
  if (!available) return 'out_of_stock';
  return v.currentlyNotInStock ? 'backorder' : 'in_stock';
}

/** Sellable quantity: null for backorder and for variants Shopify does not count (quantity 0 yet for sale). */
function quantityOf(v: SfVariant, available: boolean): number | null {
  if (!available) return 0;
  if (v.currentlyNotInStock || v.quantityAvailable === null || v.quantityAvailable <= 0) return null;
  return v.quantityAvailable;
}

export function toCatalogProduct(p: SfProduct, storefrontUrl: string): CatalogProduct {
  const simple = isDefaultOption(p.options);
  const options = simple ? [] : p.options.map((o) => ({ name: o.name, values: o.optionValues.map((v) => v.name) }));
  const availableCombos =
    p.encodedVariantAvailability !== null ? new Set(decodeVariants(p.encodedVariantAvailability).map((c) => c.join(':'))) : undefined;
  const indices = (v: SfVariant) =>
    p.options.map((o) => o.optionValues.findIndex((x) => x.name === v.selectedOptions.find((s) => s.name === o.name)?.value)).join(':');
  const url = p.onlineStoreUrl ?? `${storefrontUrl}/products/${p.handle}`;
  // The selected variant may lie beyond the first page of a large product's variants.
  const listed = p.variants.nodes;
  const sfVariants = p.selectedVariant && !listed.some((v) => v.id === p.selectedVariant!.id) ? [...listed, p.selectedVariant] : listed;
  const variants = sfVariants.map((v): CatalogVariant => {
    const available = availableCombos ? availableCombos.has(indices(v)) : v.availableForSale;
    const quantity = quantityOf(v, available);
    return {
      id: v.id,
      productId: p.id,
      ...(v.sku && { sku: v.sku }),
      title: simple ? p.title : v.title,
      price: { amount: money(v.price), currency: v.price.currencyCode },
      options: simple ? [] : v.selectedOptions,
      availability: { available, status: status(v, available), quantity },
      requiresShipping: v.requiresShipping,
      url: `${url}?variant=${v.id.slice(v.id.lastIndexOf('/') + 1)}`,
      ...(v.image && { media: [media(v.image)] }),
      ...(v.storeAvailability && {
        locationStock: v.storeAvailability.nodes.map((s) => ({ locationId: s.location.id, quantity: Math.max(0, s.quantityAvailable) })),
      }),
    };
  });
  const seen = new Set<string>();
  const allMedia = [...p.images.nodes, ...p.variants.nodes.flatMap((v) => (v.image ? [v.image] : []))].filter(
    (i) => !seen.has(i.url) && seen.add(i.url),
  );
  return {
    id: p.id,
    handle: p.handle,
    title: p.title,
    ...(p.description && { description: p.description }),
    url,
    categories: [
      ...(p.productType ? [{ value: p.productType, taxonomy: 'merchant' }] : []),
      ...(p.category ? [{ value: p.category.name, taxonomy: 'shopify' }] : []),
    ],
    media: allMedia.map(media),
    options,
    variants,
    featuredVariantId: p.selectedOrFirstAvailableVariant?.id ?? variants[0]?.id ?? '',
    tags: p.tags,
    ...(p.vendor && { vendor: { name: p.vendor } }),
  };
}
