/**
 * The store's currency and price decimals (`wc/v3/system_status` settings: currency,
 * number_of_decimals), read once and kept; `refresh` re-reads them (readiness probe).
 */
import { unexpected, type WooHttp } from './http.js';
import { expectShape, WcSystemStatus } from './wc-shapes.js';

export interface StoreFacts {
  currency: string;
  /** woocommerce_price_num_decimals: how many decimals the store writes prices with. */
  decimals: number;
}

export class StoreInfo {
  private facts: Promise<StoreFacts> | undefined;

  constructor(
    private readonly http: WooHttp,
    initial?: StoreFacts,
  ) {
    if (initial) this.facts = Promise.resolve(initial);
  }

  get(signal?: AbortSignal): Promise<StoreFacts> {
    this.facts ??= this.read(signal).catch((error: unknown) => {
      this.facts = undefined;
      throw error;
    });
    return this.facts;
  }

  async refresh(signal?: AbortSignal): Promise<StoreFacts> {
    const facts = await this.read(signal);
    this.facts = Promise.resolve(facts);
    return facts;
  }

  private async read(signal?: AbortSignal): Promise<StoreFacts> {
    const what = 'GET wc/v3/system_status';
    const response = await this.http.rest('GET', 'system_status', { params: { _fields: 'settings' } }, signal);
    if (response.status !== 200) throw unexpected(what, response.body);
    const { settings } = expectShape(WcSystemStatus, response.body, what);
    return { currency: settings.currency, decimals: settings.number_of_decimals };
  }
}
