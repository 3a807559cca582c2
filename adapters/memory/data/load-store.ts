/** Loads every demo data file of a folder into the in-memory store, failing start-up on the first problem. */
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { ConfigError } from '../../kit/config-error.js';
import type { StoreData } from '../model.js';
import { buildCatalog } from './build-catalog.js';
import { buildDiscounts } from './build-discounts.js';
import { buildLocations, buildOrigins, buildRates } from './build-shipping.js';
import { buildTax } from './build-tax.js';
import { CatalogFile } from './catalog-file.js';
import { CustomerRow, DiscountRow, InventoryRow, ProductRow, PromotionRow, ShippingRateRow } from './csv-files.js';
import { DiscountsFile, PromotionsFile } from './discounts-file.js';
import { EligibilityFile } from './eligibility-file.js';
import { readValidated } from './read-file.js';
import { ShippingFile } from './shipping-file.js';
import { TaxFile } from './tax-file.js';

const CURRENCY = 'USD';

export function loadStore(dataDir: string, storefrontUrl: string): StoreData {
  const path = (name: string) => join(dataDir, name);
  const yaml = <T>(name: string, schema: Parameters<typeof readValidated>[1]) => ({
    file: path(name),
    data: readValidated<T>(path(name), schema),
  });
  const csv = <T>(name: string, row: Parameters<typeof readValidated>[1]) => ({
    file: path(name),
    rows: readValidated<T[]>(path(name), Type.Array(row)),
  });

  const shippingSources = {
    shipping: yaml<ShippingFile>('shipping.yaml', ShippingFile),
    rateRows: csv<ShippingRateRow>('shipping_rates.csv', ShippingRateRow),
  };
  const origins = buildOrigins(shippingSources);
  const rates = buildRates(shippingSources);

  const { products, variants } = buildCatalog({
    catalog: yaml<CatalogFile>('catalog.yaml', CatalogFile),
    products: csv<ProductRow>('products.csv', ProductRow),
    inventory: csv<InventoryRow>('inventory.csv', InventoryRow),
    currency: CURRENCY,
    storefrontUrl,
    originIds: new Set(origins.keys()),
  });
  const variantsById = new Map<string, (typeof variants)[number]>();
  const variantsBySku = new Map<string, (typeof variants)[number]>();
  for (const v of variants) {
    if (variantsById.has(v.variant.id)) throw new ConfigError(`${path('catalog.yaml')}: variant id "${v.variant.id}" is used twice`);
    variantsById.set(v.variant.id, v);
    const sku = v.variant.sku?.toLowerCase();
    if (sku && variantsBySku.has(sku)) throw new ConfigError(`${path('catalog.yaml')}: SKU "${v.variant.sku}" is used twice`);
    if (sku) variantsBySku.set(sku, v);
  }
  const productsByHandle = new Map<string, (typeof products)[number]>();
  for (const p of products) {
    if (productsByHandle.has(p.handle!)) throw new ConfigError(`${path('catalog.yaml')}: handle "${p.handle}" is used twice`);
    productsByHandle.set(p.handle!, p);
  }

  const locations = buildLocations(shippingSources, new Set(variantsById.keys()));
  for (const v of variants) {
    if (v.variant.requiresShipping) {
      v.variant.locationStock = locations.map((l) => ({ locationId: l.location.id, quantity: l.stock.get(v.variant.id) ?? 0 }));
    }
  }

  const customers = csv<CustomerRow>('customers.csv', CustomerRow);
  const { codes, promotions } = buildDiscounts({
    codes: yaml<DiscountsFile>('discounts.yaml', DiscountsFile),
    codeRows: csv<DiscountRow>('discounts.csv', DiscountRow),
    promotions: yaml<PromotionsFile>('promotions.yaml', PromotionsFile),
    promotionRows: csv<PromotionRow>('promotions.csv', PromotionRow),
    known: {
      products: new Set(products.map((p) => p.id)),
      customers: new Set(customers.rows.map((c) => c.id)),
      serviceLevels: new Set(rates.map((r) => r.serviceLevel)),
    },
  });
  const tax = yaml<TaxFile>('tax.yaml', TaxFile);
  const eligibility = yaml<EligibilityFile>('eligibility.yaml', EligibilityFile);
  const knownCustomers = new Set(customers.rows.map((c) => c.id));
  for (const [claim, holders] of Object.entries(eligibility.data.claims)) {
    const unknown = holders.customers?.find((id) => !knownCustomers.has(id));
    if (!unknown) continue;
    throw new ConfigError(`${eligibility.file}: $.claims["${claim}"].customers names "${unknown}", which is not in customers.csv`);
  }

  return {
    currency: CURRENCY,
    products,
    productsById: new Map(products.map((p) => [p.id, p])),
    productsByHandle,
    variants: variantsById,
    variantsBySku,
    codes,
    promotions,
    origins,
    rates,
    locations,
    tax: buildTax(tax.file, tax.data),
    customerEmails: new Map(customers.rows.map((c) => [c.id, c.email.toLowerCase()])),
    claims: new Map(
      Object.entries(eligibility.data.claims).map(([claim, holders]) => [
        claim,
        { customers: new Set(holders.customers ?? []), emails: new Set((holders.emails ?? []).map((e) => e.toLowerCase())) },
      ]),
    ),
  };
}
