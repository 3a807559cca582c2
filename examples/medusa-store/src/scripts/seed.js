// `medusa exec ./src/scripts/seed.js`: seeds an empty Medusa database with the gateway's demo
// flower shop. The shop itself (products, stock, codes, shipping) comes as JSON from the file named
// by SEED_FILE, which the gateway writes from config/demo (scripts/medusa-store.ts), so the data
// has one source. What the gateway then needs (API keys, ids) is written as JSON to SEED_OUT.
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

  const {
    result: [region],
  } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: shop.region.name, currency_code: currency, countries: shop.region.countries, payment_providers: shop.paymentProviders },
      ],
    },
  });
  await createTaxRegionsWorkflow(container).run({
    input: shop.region.countries.map((country_code) => ({ country_code, provider_id: 'tp_system' })),
  });

  const [store] = await storeModule.listStores();
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        name: shop.name,
        supported_currencies: [{ currency_code: currency, is_default: true }],
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
    service_zones: [
      { name: shop.region.name, geo_zones: shop.region.countries.map((country_code) => ({ type: 'country', country_code })) },
    ],
  });
  await link.create({
    [Modules.STOCK_LOCATION]: { stock_location_id: location.id },
    [Modules.FULFILLMENT]: { fulfillment_set_id: fulfillmentSet.id },
  });

  const existingProfiles = await fulfillment.listShippingProfiles({ type: 'default' });
  const profile =
    existingProfiles[0] ??
    (await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: 'Default Shipping Profile', type: 'default' }] } }))
      .result[0];
  await createShippingOptionsWorkflow(container).run({
    input: shop.shipping.map((option) => ({
      name: option.name,
      price_type: 'flat',
      provider_id: 'manual_manual',
      service_zone_id: fulfillmentSet.service_zones[0].id,
      shipping_profile_id: profile.id,
      type: { label: option.label, description: option.description, code: option.code },
      prices: [
        { currency_code: currency, amount: option.amount },
        { region_id: region.id, amount: option.amount },
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
        ...(p.requiresShipping && { shipping_profile_id: profile.id }),
        options: p.options,
        metadata: { demo_id: p.demoId },
        sales_channels: [{ id: channel.id }],
        variants: p.variants.map((v) => ({
          title: v.title,
          sku: v.sku,
          options: v.options,
          manage_inventory: v.stock !== null,
          allow_backorder: v.backorder,
          prices: [{ amount: v.price, currency_code: currency }],
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
