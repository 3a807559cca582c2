/**
 * The store's currency and price decimals (`wc/v3/system_status` settings: currency,
 * number_of_decimals) and whether its prices include tax (`wc/v3/settings/tax/woocommerce_prices_include_tax`,
 * WC_REST_Setting_Options_V2_Controller: `value` yes or no; a store with taxes off registers no
 * tax settings and answers 404 `rest_setting_setting_group_invalid`: no tax in its prices), read
 * once and kept; `refresh` re-reads them (readiness probe).
 */
import { Type } from '@sinclair/typebox';
import { isWpError, unexpected, type WooHttp } from './http.js';
import { expectShape, WcSystemStatus } from './wc-shapes.js';

export interface StoreFacts {
  currency: string;
  /** woocommerce_price_num_decimals: how many decimals the store writes prices with. */
  decimals: number;
  /** woocommerce_prices_include_tax: catalog prices are entered gross (absent: read before it was known, taken as no). */
  pricesIncludeTax?: boolean;
}

const SettingOption = Type.Object({ id: Type.String(), value: Type.Unknown() });
const NO_TAX_SETTINGS = ['rest_setting_setting_group_invalid', 'rest_setting_setting_invalid'];

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
    const [response, pricesIncludeTax] = await Promise.all([
      this.http.rest('GET', 'system_status', { params: { _fields: 'settings' } }, signal),
      this.pricesIncludeTax(signal),
    ]);
    if (response.status !== 200) throw unexpected(what, response.body);
    const { settings } = expectShape(WcSystemStatus, response.body, what);
    return { currency: settings.currency, decimals: settings.number_of_decimals, pricesIncludeTax };
  }

  private async pricesIncludeTax(signal?: AbortSignal): Promise<boolean> {
    const what = 'GET wc/v3/settings/tax/woocommerce_prices_include_tax';
    const response = await this.http.rest('GET', 'settings/tax/woocommerce_prices_include_tax', {}, signal);
    if (response.status === 404 && isWpError(response.body) && NO_TAX_SETTINGS.includes(response.body.code)) return false;
    if (response.status !== 200) throw unexpected(what, response.body);
    return expectShape(SettingOption, response.body, what).value === 'yes';
  }
}
