/**
 * The simulated shop's catalog and rules: the demo flower shop of config/demo, loaded with the demo
 * store's own loader and priced with its engine (the "shop's checkout"), presented with Shopify ids
 * and in each market's currency (Shopify Markets: the buyer's country picks the currency).
 */
import { loadStore } from '../../adapters/memory/data/load-store.js';
import type { StoreData } from '../../adapters/memory/model.js';
import { mulDivRoundHalfUp } from '../../adapters/memory/money-math.js';
import { buildSearchIndex } from '../../adapters/memory/search.js';
import { currencyExponent } from '../../adapters/kit/money.js';
import { gid } from './graph.js';
import type { CaptureMethod } from './payments.js';
import { DEFAULT_TRANSLATIONS, type ProductTexts } from './translations.js';

export interface Market {
  country: string;
  currency: string;
  /** Market price = shop price x numerator / denominator (in major units). */
  rate: [number, number];
  /** Languages published in the market (LanguageCode), the shop's default first; default just EN. */
  languages?: string[];
}

/** US prices in the shop currency; the others convert at a fixed rate, so amounts are predictable. */
export const DEFAULT_MARKETS: Market[] = [
  { country: 'US', currency: 'USD', rate: [1, 1], languages: ['EN', 'FR', 'ES'] },
  { country: 'CA', currency: 'CAD', rate: [137, 100], languages: ['EN', 'FR'] },
  { country: 'JP', currency: 'JPY', rate: [150, 1] },
  { country: 'KW', currency: 'KWD', rate: [307, 1000] },
];

export interface PricedStore {
  data: StoreData;
  index: ReturnType<typeof buildSearchIndex>;
}

/** Demo ids <-> Shopify numeric ids, stable for a given catalog order. */
export class ShopIds {
  private readonly toGid = new Map<string, string>();
  private readonly fromGid = new Map<string, string>();

  constructor(data: StoreData) {
    data.products.forEach((p, i) => {
      this.add('Product', p.id, 8_800_000_000_001 + i);
      p.variants.forEach((v, j) => this.add('ProductVariant', v.id, 44_000_000_000_001 + i * 100 + j));
    });
    data.locations.forEach((l, i) => this.add('Location', l.location.id, 70_000_000_001 + i));
  }

  private add(type: string, id: string, n: number) {
    const value = gid(type, n);
    this.toGid.set(`${type}:${id}`, value);
    this.fromGid.set(value, id);
  }

  gid(type: 'Product' | 'ProductVariant' | 'Location', demoId: string): string {
    return this.toGid.get(`${type}:${demoId}`)!;
  }

  /** The demo id behind a Shopify id (of the given type), if any. */
  demoId(type: 'Product' | 'ProductVariant' | 'Location', value: string): string | undefined {
    return value.startsWith(`gid://shopify/${type}/`) ? this.fromGid.get(value) : undefined;
  }
}

export class ShopData {
  readonly ids: ShopIds;
  readonly shopCurrency: string;
  /** Prices include tax (Settings > Taxes and duties); the default, as on a US shop, adds it. */
  taxesIncluded = false;
  /** Shipping rates come from a carrier service (ShopifySimulatorOptions.carrierRates); null: static rates. */
  carrierRates: { pendingReads: number } | null = null;
  /** Settings > Payments > Payment capture method: card payments are captured at checkout, or only authorized. */
  paymentCapture: CaptureMethod = 'automatic';
  /** `Shop.ianaTimezone`: search times without an offset are read in it. */
  readonly timeZone = 'America/Chicago';
  private readonly priced = new Map<string, PricedStore>();

  constructor(
    readonly base: StoreData,
    readonly markets: Market[],
    /** Language code -> demo product id -> translated texts (translations.ts). */
    readonly translations: Record<string, Record<string, ProductTexts>> = DEFAULT_TRANSLATIONS,
  ) {
    this.ids = new ShopIds(base);
    this.shopCurrency = base.currency;
  }

  static load(dataDir: string, storefrontUrl: string, markets: Market[] = DEFAULT_MARKETS): ShopData {
    return new ShopData(loadStore(dataDir, storefrontUrl), markets);
  }

  /** The market of a buyer's country; countries without one buy in the shop currency. */
  market(country?: string | null): Market {
    return this.markets.find((m) => m.country === country) ?? this.markets[0]!;
  }

  /** Sets a variant's tracked stock (0: sold out) in every market, as the merchant's inventory does. */
  setStock(demoVariantId: string, stock: number): void {
    for (const data of [this.base, ...[...this.priced.values()].map((p) => p.data)]) {
      const source = data.variants.get(demoVariantId)!;
      source.stock = stock;
      source.variant.availability =
        stock > 0 ? { available: true, status: 'in_stock', quantity: stock } : { available: false, status: 'out_of_stock', quantity: 0 };
    }
  }

  /**
   * An order takes its units out of tracked stock ("inventory is reserved ... the items will no
   * longer be available for other customers to purchase", `draftOrderComplete`; a checkout commits
   * it likewise). Stock that may be oversold (backorder, preorder) goes below zero and stays sellable.
   */
  commitStock(demoVariantId: string, quantity: number): void {
    const source = this.base.variants.get(demoVariantId);
    if (!source || source.stock === null) return;
    const left = source.stock - quantity;
    if (!source.backorder && !source.preorderOn) return this.setStock(demoVariantId, left);
    for (const data of [this.base, ...[...this.priced.values()].map((p) => p.data)]) data.variants.get(demoVariantId)!.stock = left;
  }

  /** The catalog and rules priced in a market's currency. */
  store(market: Market): PricedStore {
    let priced = this.priced.get(market.currency);
    if (!priced) {
      const data = market.currency === this.shopCurrency ? this.base : convert(this.base, market);
      priced = { data, index: buildSearchIndex(data) };
      this.priced.set(market.currency, priced);
    }
    return priced;
  }
}

/** A copy of the store with every amount in the market's currency, rounded half up per amount. */
function convert(base: StoreData, market: Market): StoreData {
  const data = structuredClone(base);
  const from = 10 ** currencyExponent(base.currency);
  const to = 10 ** currencyExponent(market.currency);
  const [num, den] = market.rate;
  const amount = (value: number) => mulDivRoundHalfUp(value, num * to, den * from);
  data.currency = market.currency;
  for (const v of data.variants.values()) {
    v.variant.price = { amount: amount(v.variant.price.amount), currency: market.currency };
  }
  for (const rate of data.rates) rate.price = amount(rate.price);
  for (const rule of [...data.codes.values(), ...data.promotions]) {
    if (rule.type === 'fixed_amount') rule.value = amount(rule.value);
    if (rule.minSubtotal !== undefined) rule.minSubtotal = amount(rule.minSubtotal);
  }
  return data;
}
