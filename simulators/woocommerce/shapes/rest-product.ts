/**
 * `wc/v3` product and variation resources, field by field as documented in
 * woocommerce/woocommerce-rest-api-docs source/includes/wp-api-v3/_products.md ("Product
 * properties") and _product-variations.md ("Product variation properties"), and as
 * plugins/woocommerce/includes/rest-api/Controllers/Version3/class-wc-rest-products-controller.php
 * and class-wc-rest-product-variations-controller.php prepare them (WooCommerce 10.x).
 */
import type { Image, Purchasable, SimProduct, SimVariation } from '../model.js';
import type { WooStore } from '../store.js';
import { enteredPrice, links, localDate, gmtDate } from './format.js';

function imageShape(store: WooStore, img: Image, date: Date) {
  return {
    id: img.id,
    date_created: localDate(store, date),
    date_created_gmt: gmtDate(date),
    date_modified: localDate(store, date),
    date_modified_gmt: gmtDate(date),
    src: img.src,
    name: img.name,
    alt: img.alt,
  };
}

const metaShape = (item: Purchasable) => item.meta.map((m) => ({ id: m.id, key: m.key, value: m.value }));

/** Fields every purchasable item has, in the order the controller writes them. */
function stockAndShipping(store: WooStore, item: Purchasable) {
  const status = store.stockStatus(item);
  return {
    tax_status: 'taxable',
    tax_class: '',
    manage_stock: item.manageStock,
    stock_quantity: item.manageStock ? item.stockQuantity : null,
    stock_status: status,
    backorders: item.backorders,
    backorders_allowed: item.backorders !== 'no',
    backordered: status === 'onbackorder',
    low_stock_amount: null,
    weight: '',
    dimensions: { length: '', width: '', height: '' },
    shipping_class: item.shippingClass,
    shipping_class_id: store.shippingClasses.find((c) => c.slug === item.shippingClass)?.id ?? 0,
  };
}

function priceFields(store: WooStore, item: Purchasable, purchasable: boolean) {
  const price = enteredPrice(item.price, store.settings.decimals);
  return {
    price,
    regular_price: price,
    sale_price: '',
    date_on_sale_from: null,
    date_on_sale_from_gmt: null,
    date_on_sale_to: null,
    date_on_sale_to_gmt: null,
    on_sale: false,
    purchasable,
  };
}

export function productPermalink(store: WooStore, product: SimProduct): string {
  return `${store.homeUrl()}/product/${product.slug}/`;
}

export function productShape(store: WooStore, product: SimProduct) {
  const prices = store.prices(product);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const symbol = store.settings.currencySymbol;
  const amount = (n: number) =>
    `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">${symbol}</span>` +
    `${enteredPrice(n, 2)}</bdi></span>`;
  const home = store.homeUrl();
  const base = product.type === 'simple' ? product : { ...product, price: low };
  return {
    id: product.id,
    name: product.name,
    slug: product.slug,
    permalink: productPermalink(store, product),
    date_created: localDate(store, product.dateCreated),
    date_created_gmt: gmtDate(product.dateCreated),
    date_modified: localDate(store, product.dateModified),
    date_modified_gmt: gmtDate(product.dateModified),
    type: product.type,
    status: 'publish',
    featured: false,
    catalog_visibility: 'visible',
    description: product.description,
    short_description: product.shortDescription,
    sku: product.sku,
    global_unique_id: '',
    ...priceFields(store, base, prices.length > 0),
    // A variable product's own price is its cheapest variation's; regular_price stays empty.
    ...(product.type === 'variable' && { regular_price: '', price: enteredPrice(low, store.settings.decimals) }),
    price_html: low === high ? amount(low) : `${amount(low)} &ndash; ${amount(high)}`,
    total_sales: 0,
    virtual: product.virtual,
    downloadable: product.downloadable,
    downloads: [],
    download_limit: -1,
    download_expiry: -1,
    external_url: '',
    button_text: '',
    ...stockAndShipping(store, product),
    stock_status: store.productStockStatus(product),
    sold_individually: false,
    shipping_required: !product.virtual,
    shipping_taxable: !product.virtual,
    reviews_allowed: true,
    average_rating: product.averageRating,
    rating_count: product.ratingCount,
    upsell_ids: [],
    cross_sell_ids: [],
    parent_id: 0,
    purchase_note: '',
    categories: product.categoryIds
      .map((id) => store.categories.find((c) => c.id === id)!)
      .map((c) => ({ id: c.id, name: c.name, slug: c.slug })),
    brands: [],
    tags: product.tagIds.map((id) => store.tags.find((t) => t.id === id)!).map((t) => ({ id: t.id, name: t.name, slug: t.slug })),
    images: product.images.map((img) => imageShape(store, img, product.dateCreated)),
    attributes: product.attributes.map((a) => ({
      id: 0,
      name: a.name,
      slug: a.name,
      position: a.position,
      visible: a.visible,
      variation: a.variation,
      options: a.options,
    })),
    default_attributes: product.defaultAttributes.map((a) => ({ id: 0, name: a.name, option: a.option })),
    variations: product.variationIds,
    grouped_products: [],
    menu_order: product.menuOrder,
    related_ids: [],
    meta_data: metaShape(product),
    has_options: product.type === 'variable',
    post_password: '',
    _links: links(home, `wc/v3/products/${product.id}`, 'wc/v3/products'),
  };
}

export function variationShape(store: WooStore, variation: SimVariation) {
  const parent = store.products.get(variation.parentId)!;
  const home = store.homeUrl();
  const title = variation.attributes
    .map((a) => a.option)
    .filter(Boolean)
    .join(', ');
  const query = variation.attributes.map((a) => `attribute_${a.name.toLowerCase()}=${encodeURIComponent(a.option)}`).join('&');
  return {
    id: variation.id,
    type: 'variation',
    date_created: localDate(store, variation.dateCreated),
    date_created_gmt: gmtDate(variation.dateCreated),
    date_modified: localDate(store, variation.dateModified),
    date_modified_gmt: gmtDate(variation.dateModified),
    description: '',
    permalink: `${productPermalink(store, parent)}?${query}`,
    sku: variation.sku,
    global_unique_id: '',
    ...priceFields(store, variation, true),
    status: 'publish',
    virtual: variation.virtual,
    downloadable: variation.downloadable,
    downloads: [],
    download_limit: -1,
    download_expiry: -1,
    ...stockAndShipping(store, variation),
    image: variation.image ? imageShape(store, variation.image, variation.dateCreated) : null,
    attributes: variation.attributes.map((a) => ({ id: 0, name: a.name, slug: a.name.toLowerCase(), option: a.option })),
    menu_order: variation.menuOrder,
    meta_data: metaShape(variation),
    name: title ? `${parent.name} - ${title}` : parent.name,
    parent_id: variation.parentId,
    _links: links(home, `wc/v3/products/${parent.id}/variations/${variation.id}`, `wc/v3/products/${parent.id}/variations`, {
      up: `wc/v3/products/${parent.id}`,
    }),
  };
}

/**
 * A variation in a `/products` list (`sku=` covers product_variation posts): the products
 * controller renders it with the product fields, type "variation" and its parent_id.
 */
export function variationAsProductShape(store: WooStore, variation: SimVariation) {
  const parent = store.products.get(variation.parentId)!;
  const own = variationShape(store, variation);
  return {
    ...productShape(store, {
      ...parent,
      type: 'simple',
      price: variation.price,
      sku: variation.sku,
      variationIds: [],
      attributes: [],
      defaultAttributes: [],
    }),
    id: variation.id,
    name: own.name,
    slug: `${parent.slug}-${variation.attributes
      .map((a) => a.option.toLowerCase())
      .filter(Boolean)
      .join('-')}`,
    permalink: own.permalink,
    type: 'variation',
    parent_id: variation.parentId,
    ...Object.fromEntries(
      ['manage_stock', 'stock_quantity', 'stock_status', 'backorders', 'backorders_allowed', 'backordered', 'virtual', 'downloadable'].map(
        (k) => [k, own[k as keyof typeof own]],
      ),
    ),
    categories: [],
    tags: [],
    images: own.image ? [own.image] : [],
    attributes: variation.attributes.map((a) => ({ id: 0, name: a.name, option: a.option })),
    menu_order: variation.menuOrder,
    meta_data: own.meta_data,
    _links: own._links,
  };
}

/** Product categories resource (_product-categories.md). */
export function categoryShape(store: WooStore, id: number) {
  const term = store.categories.find((c) => c.id === id)!;
  const count = [...store.products.values()].filter((p) => p.categoryIds.includes(id)).length;
  return {
    id: term.id,
    name: term.name,
    slug: term.slug,
    parent: 0,
    description: '',
    display: 'default',
    image: null,
    menu_order: 0,
    count,
    _links: links(store.homeUrl(), `wc/v3/products/categories/${term.id}`, 'wc/v3/products/categories'),
  };
}
