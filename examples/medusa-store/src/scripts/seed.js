// `medusa exec ./src/scripts/seed.js`: seeds an empty Medusa database with the gateway's demo
// flower shop. The shop itself (products, stock, codes, shipping) comes as JSON from the file named
// by SEED_FILE, which the gateway writes from config/demo (scripts/medusa-store.ts), so the data
// has one source, with what only a Medusa store has (MEDUSA_EXTRAS there): a second shipping
// profile, a tax rate added on top of prices and a region whose prices include tax. What the
// gateway then needs (API keys, ids) is written as JSON to SEED_OUT.
//
// Plain CommonJS on Medusa's own workflows (@medusajs/medusa/core-flows), the way Medusa's starter
// seeds a store: no build step, nothing written to the database behind Medusa's back.
const { readFileSync, writeFileSync } = require('node:fs');
const {
  createApiKeysWorkflow,
  createInventoryLevelsWorkflow,
  createProductCategoriesWorkflow,
  createProductsWorkflow,
  createPromotionsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  createTaxRegionsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} = require('@medusajs/medusa/core-flows');
const { ContainerRegistrationKeys, Modules, ProductStatus } = require('@medusajs/framework/utils');

async function seed({ container }) {
  const shop = JSON.parse(readFileSync(process.env.SEED_FILE, 'utf8'));
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER);
  const link = container.resolve(ContainerRegistrationKeys.LINK);
  const query = container.resolve(ContainerRegistrationKeys.QUERY);
  const fulfillment = container.resolve(Modules.FULFILLMENT);
  const storeModule = container.resolve(Modules.STORE);
  const currency = shop.currency;

  const {
    result: [channel],
  } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: shop.salesChannel }] } });

  // The default region prices before tax; the tax-inclusive one has prices that include its tax.
  // Medusa decides per price (pricing module, isTaxInclusive): a price with a region rule (the
  // shipping options') follows the region's preference, any other its currency's, so both are set.
  // Tax rates are per country (Medusa's tax regions).
  const regionInput = (r) => ({
    name: r.name,
    currency_code: r.currency ?? currency,
    countries: r.countries,
    payment_providers: shop.paymentProviders,
    ...(r === shop.taxInclusiveRegion && { is_tax_inclusive: true }),
  });
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: { regions: [regionInput(shop.region), regionInput(shop.taxInclusiveRegion)] },
  });
  const region = regions.find((r) => r.name === shop.region.name);
  const taxInclusiveRegion = regions.find((r) => r.name === shop.taxInclusiveRegion.name);
  const countries = [...shop.region.countries, ...shop.taxInclusiveRegion.countries];
  const taxes = { ...shop.region.tax, ...shop.taxInclusiveRegion.tax };
  await createTaxRegionsWorkflow(container).run({
    input: countries.map((country_code) => ({
      country_code,
      provider_id: 'tp_system',
      ...(taxes[country_code] && { default_tax_rate: taxes[country_code] }),
    })),
  });
  const currencies = [...new Set([currency, shop.taxInclusiveRegion.currency])];

  const [store] = await storeModule.listStores();
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: shop.name,
        supported_currencies: currencies.map((currency_code) => ({
          currency_code,
          is_default: currency_code === currency,
          ...(currency_code === shop.taxInclusiveRegion.currency && { is_tax_inclusive: true }),
        })),
        default_sales_channel_id: channel.id,
        default_region_id: region.id,
      },
    },
  });

  const {
    result: [location],
  } = await createStockLocationsWorkflow(container).run({ input: { locations: [shop.location] } });
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: location.id, add: [channel.id] } });
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_provider_id: 'manual_manual' },
  });
  const fulfillmentSet = await fulfillment.createFulfillmentSets({
    name: `${shop.location.name} delivery`,
    type: 'shipping',
    service_zones: [{ name: 'Everywhere we ship', geo_zones: countries.map((country_code) => ({ type: 'country', country_code })) }],
  });
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
  });

  // Medusa makes a default profile with the store; the others are made here. Every option serves
  // one profile: a cart with products of two profiles needs a shipping method of each.
  const profiles = new Map();
  for (const wanted of shop.shippingProfiles) {
    const [existing] = await fulfillment.listShippingProfiles({ type: wanted.type });
    profiles.set(
      wanted.key,
      existing ??
        (await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: wanted.name, type: wanted.type }] } })).result[0],
    );
  }
  await createShippingOptionsWorkflow(container).run({
    input: shop.shipping.map((option) => ({
      name: option.name,
      price_type: 'flat',
      provider_id: 'manual_manual',
      service_zone_id: fulfillmentSet.service_zones[0].id,
      shipping_profile_id: profiles.get(option.profile).id,
      type: { label: option.label, description: option.description, code: option.code },
      prices: [
        ...currencies.map((currency_code) => ({ currency_code, amount: option.amount })),
        ...[region, taxInclusiveRegion].map((r) => ({ region_id: r.id, amount: option.amount })),
      ],
      rules: [
        { attribute: 'enabled_in_store', value: 'true', operator: 'eq' },
        { attribute: 'is_return', value: 'false', operator: 'eq' },
      ],
    })),
  });

  const {
    result: [publishable, secret],
  } = await createApiKeysWorkflow(container).run({
    input: {
      api_keys: [
        { title: 'Agentic commerce gateway (storefront)', type: 'publishable', created_by: '' },
        { title: 'Agentic commerce gateway (orders)', type: 'secret', created_by: '' },
      ],
    },
  });
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: publishable.id, add: [channel.id] } });

  const categoryNames = [...new Set(shop.products.flatMap((p) => p.categories))];
  const { result: categories } = await createProductCategoriesWorkflow(container).run({
    input: { product_categories: categoryNames.map((name) => ({ name, is_active: true })) },
  });
  const categoryId = new Map(categories.map((c) => [c.name, c.id]));

  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: shop.products.map((p) => ({
        title: p.title,
        handle: p.handle,
        description: p.description,
        status: ProductStatus.PUBLISHED,
        thumbnail: p.image,
        images: p.image ? [{ url: p.image }] : [],
        category_ids: p.categories.map((name) => categoryId.get(name)),
        ...(p.shippingProfile && { shipping_profile_id: profiles.get(p.shippingProfile).id }),
        options: p.options,
        metadata: { demo_id: p.demoId },
        sales_channels: [{ id: channel.id }],
        variants: p.variants.map((v) => ({
          title: v.title,
          sku: v.sku,
          options: v.options,
          manage_inventory: v.stock !== null,
          allow_backorder: v.backorder,
          // The demo's prices, the same figures in every currency the store sells in.
          prices: currencies.map((currency_code) => ({ amount: v.price, currency_code })),
          metadata: { demo_id: v.demoId },
        })),
      })),
    },
  });

  const { data: variants } = await query.graph({
    entity: 'product_variant',
    fields: ['id', 'sku', 'metadata', 'manage_inventory', 'inventory_items.inventory_item_id'],
    filters: { product_id: products.map((p) => p.id) },
  });
  const stockBySku = new Map(shop.products.flatMap((p) => p.variants.map((v) => [v.sku, v.stock])));
  await createInventoryLevelsWorkflow(container).run({
    input: {
      inventory_levels: variants
        .filter((v) => v.manage_inventory)
        .map((v) => ({
          location_id: location.id,
          inventory_item_id: v.inventory_items[0].inventory_item_id,
          stocked_quantity: stockBySku.get(v.sku),
        })),
    },
  });

  await createPromotionsWorkflow(container).run({
    input: {
      promotionsData: shop.promotions.map((code) => ({
        code: code.code,
        type: 'standard',
        status: 'active',
        is_automatic: false,
        application_method: {
          type: code.type,
          target_type: 'items',
          allocation: 'across',
          value: code.value,
          ...(code.type === 'fixed' && { currency_code: currency }),
        },
      })),
    },
  });

  const out = {
    publishableKey: publishable.token,
    secretKey: secret.token,
    regionId: region.id,
    taxInclusiveRegionId: taxInclusiveRegion.id,
    salesChannelId: channel.id,
    stockLocationId: location.id,
    products: Object.fromEntries(products.map((p) => [p.metadata.demo_id, p.id])),
    variants: Object.fromEntries(variants.map((v) => [v.metadata.demo_id, v.id])),
  };
  writeFileSync(process.env.SEED_OUT, JSON.stringify(out, null, 2));
  logger.info(
    `Seeded ${products.length} products, ${shop.promotions.length} promotion codes and ${shop.shipping.length} shipping options.`,
  );
}

exports.default = seed;
