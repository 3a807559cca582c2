/**
 * Seeds the simulated store with the demo flower shop (config/demo, read by the demo store's own
 * loader) the way a merchant would have set it up in WooCommerce:
 * - products: simple when they have no options, variable otherwise (attributes with
 *   `variation: true`, one variation per variant); stock managed when tracked, backorders
 *   "notify" where the shop sells on backorder; digital goods virtual + downloadable; the origin a
 *   parcel leaves from as the shipping class; pre-orders as the WooCommerce Pre-Orders extension
 *   stores them (`_wc_pre_orders_enabled`, `_wc_pre_orders_availability_datetime`); discontinued
 *   products tagged `discontinued` and out of stock (core has no such status);
 * - coupons: percentage codes as `percent`, fixed codes as `fixed_cart` (or `fixed_product` when
 *   computed per item), free shipping as a coupon with `free_shipping` that unlocks the zones'
 *   free shipping method; login and customer rules as `email_restrictions` (core has no other
 *   customer rule); start dates and minimum quantities have no core equivalent and are dropped;
 * - shipping: one zone per country with rates of its own, zone 0 for the rest, a flat rate per
 *   service level, a free shipping method (`min_amount` of the free-shipping promotion, or a
 *   coupon); automatic promotions other than that have no core equivalent;
 * - tax: one standard rate per rule, state rules before country rules (WC_Tax matching order).
 * Plus what only WooCommerce has: a variable product whose variations leave an attribute empty
 * ("any"), and a coupon whose usage limit is used up.
 */
import { basename } from 'node:path';
import { loadStore } from '../../adapters/memory/data/load-store.js';
import type { StoreData, StoreVariant } from '../../adapters/memory/model.js';
import type { Image, Meta, ShippingMethodInstance, SimCoupon, SimProduct, SimVariation, StoreSettings, Term } from './model.js';
import { WooStore } from './store.js';

const SEEDED_AT = Date.parse('2026-01-05T09:00:00Z');

const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Demo ids (catalog.yaml) to the store's numeric ids, for tests and fixtures. */
export interface SeedIndex {
  products: Map<string, number>;
  variations: Map<string, number>;
}

function term(store: WooStore, list: Term[], name: string): number {
  const found = list.find((t) => t.name === name);
  if (found) return found.id;
  const created = { id: store.nextId('term', 15), name, slug: slugify(name) };
  list.push(created);
  return created.id;
}

function image(store: WooStore, url: string, alt = ''): Image {
  return { id: store.nextId('image', 500), src: url, name: basename(new URL(url).pathname), alt };
}

function meta(store: WooStore, key: string, value: unknown): Meta {
  return { id: store.nextId('meta', 9000), key, value };
}

function stockFields(v: Pick<StoreVariant, 'stock' | 'backorder' | 'discontinued'>) {
  const managed = v.stock !== null;
  return {
    manageStock: managed,
    stockQuantity: v.stock,
    stockStatus: managed ? (v.stock! > 0 ? 'instock' : v.backorder ? 'onbackorder' : 'outofstock') : ('instock' as const),
    backorders: v.backorder ? ('notify' as const) : ('no' as const),
  } as const;
}

function preorderMeta(store: WooStore, v: StoreVariant): Meta[] {
  if (!v.preorderOn) return [];
  const releaseAt = Math.floor(Date.parse(`${v.preorderOn}T00:00:00Z`) / 1000);
  return [meta(store, '_wc_pre_orders_enabled', 'yes'), meta(store, '_wc_pre_orders_availability_datetime', String(releaseAt))];
}

function seedProducts(store: WooStore, data: StoreData, index: SeedIndex): void {
  data.products.forEach((p, position) => {
    const variants = p.variants.map((v) => data.variants.get(v.id)!);
    const first = variants[0]!;
    const created = new Date(SEEDED_AT + position * 60_000);
    const id = store.nextId('post', 100);
    const merchantCategories = p.categories.filter((c) => c.taxonomy === 'merchant' || c.taxonomy === undefined);
    const tags = [...p.tags, ...(first.discontinued ? ['discontinued'] : [])];
    const images = p.media
      .filter((m) => !p.variants.some((v) => v.media?.some((vm) => vm.url === m.url)))
      .map((m) => image(store, m.url, m.altText));
    const simple = p.options.length === 0;
    const product: SimProduct = {
      id,
      type: simple ? 'simple' : 'variable',
      name: p.title,
      slug: p.handle ?? slugify(p.title),
      description: `<p>${p.description ?? ''}</p>`,
      shortDescription: '',
      sku: simple ? (first.variant.sku ?? '') : '',
      price: simple ? first.variant.price.amount : 0,
      ...stockFields(simple ? first : { stock: null, backorder: false, discontinued: false }),
      ...(first.discontinued && { stockStatus: 'outofstock' as const, manageStock: true, stockQuantity: 0 }),
      virtual: !first.variant.requiresShipping,
      downloadable: !first.variant.requiresShipping,
      shippingClass: first.originId ?? '',
      meta: simple ? preorderMeta(store, first) : [],
      menuOrder: position,
      dateCreated: created,
      dateModified: created,
      categoryIds: merchantCategories.map((c) => term(store, store.categories, c.value)),
      tagIds: tags.map((t) => term(store, store.tags, t)),
      images,
      attributes: p.options.map((o, i) => ({ name: o.name, position: i, visible: true, variation: true, options: [...o.values] })),
      defaultAttributes: simple
        ? []
        : (p.variants.find((v) => v.id === p.featuredVariantId)?.options ?? []).map((o) => ({ name: o.name, option: o.value })),
      variationIds: [],
      averageRating: (p.rating?.value ?? 0).toFixed(2),
      ratingCount: p.rating?.count ?? 0,
    };
    store.products.set(id, product);
    index.products.set(p.id, id);
    if (simple) {
      index.variations.set(first.variant.id, id);
      return;
    }
    variants.forEach((v, i) => {
      const variationId = store.nextId('post', 100);
      const variation: SimVariation = {
        id: variationId,
        parentId: id,
        sku: v.variant.sku ?? '',
        price: v.variant.price.amount,
        ...stockFields(v),
        virtual: !v.variant.requiresShipping,
        downloadable: !v.variant.requiresShipping,
        shippingClass: v.originId ?? '',
        meta: preorderMeta(store, v),
        menuOrder: i,
        dateCreated: created,
        dateModified: created,
        image: v.variant.media?.[0] ? image(store, v.variant.media[0].url, v.variant.media[0].altText) : null,
        attributes: v.variant.options.map((o) => ({ name: o.name, option: o.value })),
      };
      store.variations.set(variationId, variation);
      product.variationIds.push(variationId);
      index.variations.set(v.variant.id, variationId);
    });
  });
}

/**
 * A greeting card in two sizes whose variations accept any message: WooCommerce stores one
 * variation per size with the Message attribute left empty, and the buyer picks the message.
 */
function seedAnyVariationProduct(store: WooStore, storefrontUrl: string, index: SeedIndex): void {
  const id = store.nextId('post', 100);
  const created = new Date(SEEDED_AT + 3_600_000);
  const base = {
    manageStock: false,
    stockQuantity: null,
    stockStatus: 'instock' as const,
    backorders: 'no' as const,
    virtual: false,
    downloadable: false,
    shippingClass: 'warehouse',
    meta: [],
    dateCreated: created,
    dateModified: created,
  };
  const product: SimProduct = {
    ...base,
    id,
    type: 'variable',
    name: 'Greeting Card',
    slug: 'greeting-card',
    description: '<p>A letterpress greeting card with an envelope, printed with the message you choose.</p>',
    shortDescription: '',
    sku: 'CARD',
    price: 0,
    menuOrder: store.products.size,
    categoryIds: [term(store, store.categories, 'Cards')],
    tagIds: ['card', 'gift'].map((t) => term(store, store.tags, t)),
    images: [image(store, `${storefrontUrl}/images/greeting-card.jpg`, 'A folded letterpress card with a kraft envelope')],
    attributes: [
      { name: 'Size', position: 0, visible: true, variation: true, options: ['Small', 'Large'] },
      { name: 'Message', position: 1, visible: true, variation: true, options: ['Happy Birthday', 'Thank You', 'With Love'] },
    ],
    defaultAttributes: [{ name: 'Size', option: 'Small' }],
    variationIds: [],
    averageRating: '4.50',
    ratingCount: 8,
  };
  store.products.set(id, product);
  index.products.set('greeting_card', id);
  for (const [i, [size, price]] of (
    [
      ['Small', 450],
      ['Large', 650],
    ] as const
  ).entries()) {
    const variationId = store.nextId('post', 100);
    store.variations.set(variationId, {
      ...base,
      id: variationId,
      parentId: id,
      sku: `CARD-${size[0]}`,
      price,
      menuOrder: i,
      image: null,
      attributes: [
        { name: 'Size', option: size },
        { name: 'Message', option: '' },
      ],
    });
    product.variationIds.push(variationId);
    index.variations.set(`greeting_card_${size.toLowerCase()}`, variationId);
  }
}

function seedCoupons(store: WooStore, data: StoreData, index: SeedIndex): void {
  const created = new Date(SEEDED_AT);
  const allEmails = [...data.customerEmails.values()];
  const add = (coupon: Omit<SimCoupon, 'id' | 'dateCreated' | 'usedBy'>) => {
    const id = store.nextId('post', 100);
    store.coupons.set(id, { ...coupon, id, dateCreated: created, usedBy: [] });
  };
  for (const rule of data.codes.values()) {
    const emails = [
      ...[...(rule.customers ?? [])].map((c) => data.customerEmails.get(c)!),
      ...(rule.emails ?? []),
      ...(rule.requiresLogin && !rule.customers && !rule.emails ? allEmails : []),
    ];
    add({
      code: rule.key.toLowerCase(),
      amount: String(rule.value),
      discountType:
        rule.type === 'percentage' ? 'percent' : rule.method === 'each' && rule.type === 'fixed_amount' ? 'fixed_product' : 'fixed_cart',
      description: rule.title,
      dateExpires: rule.endsAt ? new Date(rule.endsAt) : null,
      usageCount: 0,
      usageLimit: null,
      usageLimitPerUser: null,
      individualUse: rule.individualUse,
      productIds: [...(rule.products ?? [])].map((p) => index.products.get(p)!),
      excludedProductIds: [],
      productCategories: [...(rule.categories ?? [])].map((value) => store.categories.find((c) => c.name.toLowerCase() === value)?.id ?? 0),
      excludedProductCategories: [],
      excludeSaleItems: false,
      freeShipping: rule.type === 'free_shipping',
      minimumAmount: rule.minSubtotal ?? 0,
      maximumAmount: 0,
      emailRestrictions: [...new Set(emails)],
    });
  }
  add({
    code: 'thankyou5',
    amount: '500',
    discountType: 'fixed_cart',
    description: '$5 off, once (already used)',
    dateExpires: null,
    usageCount: 1,
    usageLimit: 1,
    usageLimitPerUser: null,
    individualUse: false,
    productIds: [],
    excludedProductIds: [],
    productCategories: [],
    excludedProductCategories: [],
    excludeSaleItems: false,
    freeShipping: false,
    minimumAmount: 0,
    maximumAmount: 0,
    emailRestrictions: [],
  });
}

function seedShipping(store: WooStore, data: StoreData): void {
  for (const origin of data.origins.values())
    store.shippingClasses.push({ id: store.nextId('term', 15), name: origin.name, slug: origin.id });
  const freeShippingMinimum = data.promotions.find((p) => p.type === 'free_shipping' && p.minSubtotal && !p.products)?.minSubtotal ?? 0;
  const levels = [...new Set(data.rates.map((r) => r.serviceLevel))];
  const countries = [...new Set(data.rates.map((r) => r.country).filter((c) => c !== 'default'))];
  const restricted = [...data.origins.values()].filter((o) => o.shipsTo);
  let instanceId = 0;
  const methods = (country: string | null): ShippingMethodInstance[] => {
    const excludedClasses = restricted.filter((o) => !country || !o.shipsTo!.has(country)).map((o) => o.id);
    const flat = levels.flatMap((level) => {
      const rate =
        data.rates.find((r) => r.serviceLevel === level && r.country === country) ??
        data.rates.find((r) => r.serviceLevel === level && r.country === 'default');
      if (!rate) return [];
      return [
        {
          instanceId: ++instanceId,
          methodId: 'flat_rate' as const,
          title: rate.title,
          cost: rate.price,
          requires: '' as const,
          minAmount: 0,
          description: `Dispatched via ${rate.carrier}`,
          deliveryTime: `${rate.minDays}-${rate.maxDays} business days`,
          excludedClasses,
        },
      ];
    });
    const minimum = country === 'US' ? freeShippingMinimum : 0;
    const free: ShippingMethodInstance = {
      instanceId: ++instanceId,
      methodId: 'free_shipping',
      title: 'Free shipping',
      cost: 0,
      requires: minimum ? 'either' : 'coupon',
      minAmount: minimum,
      description: '',
      deliveryTime: '',
      excludedClasses,
    };
    return [...flat, free];
  };
  countries.forEach((country, i) => {
    const name = new Intl.DisplayNames(['en'], { type: 'region' }).of(country) ?? country;
    store.zones.push({ id: i + 1, name, order: i, locations: [{ code: country, type: 'country' }], methods: methods(country) });
  });
  store.zones.push({
    id: 0,
    name: 'Locations not covered by your other zones',
    order: countries.length,
    locations: [],
    methods: methods(null),
  });
}

function seedTax(store: WooStore, data: StoreData): void {
  const rules = [...data.tax.rules].sort((a, b) => b.region.length - a.region.length);
  rules.forEach((rule, i) => {
    const [country, state = ''] = rule.region.split('-');
    store.taxRates.push({
      id: i + 1,
      country: country!,
      state,
      rate: (rule.ppm / 10_000).toFixed(4),
      name: rule.title,
      priority: 1,
      compound: false,
      shipping: rule.shippingTaxable,
    });
  });
}

export interface SeededStore {
  store: WooStore;
  index: SeedIndex;
}

export function seedDemoStore(options: {
  dataDir: string;
  storefrontUrl: () => string;
  now: () => Date;
  settings?: Partial<Pick<StoreSettings, 'pricesIncludeTax' | 'taxDisplayCart' | 'timezone' | 'holdStockMinutes' | 'localPickup'>>;
}): SeededStore {
  const data = loadStore(options.dataDir, 'https://petal-and-stem.example');
  const store = new WooStore(
    {
      currency: data.currency,
      currencySymbol: '$',
      decimals: 2,
      baseLocation: 'US:IL',
      pricesIncludeTax: false,
      taxDisplayCart: 'excl',
      // A store west of UTC by default: local post dates then differ from GMT ones (site-time.ts).
      timezone: 'America/New_York',
      holdStockMinutes: 60,
      localPickup: { enabled: false, title: 'Pickup', cost: 0, locations: [] },
      ...options.settings,
    },
    options.storefrontUrl,
    options.now,
  );
  const index: SeedIndex = { products: new Map(), variations: new Map() };
  seedProducts(store, data, index);
  seedAnyVariationProduct(store, 'https://petal-and-stem.example', index);
  seedCoupons(store, data, index);
  seedShipping(store, data);
  seedTax(store, data);
  return { store, index };
}
