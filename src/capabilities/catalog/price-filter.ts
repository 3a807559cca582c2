/**
 * The price filter in a currency the store prices in (spec part 1 §2.6). Bounds arrive in minor
 * units of context.currency (the store's default currency when absent). A currency the store
 * does not price in is converted with the tenant's `exchange_rates` in exact integer arithmetic,
 * widening to whole minor units (min down, max up) so no product on the boundary is lost; without
 * a rate the filter is not applied and a warning says so.
 */
import type { Message } from '../../../schemas/common.js';
import { infoMessage, warningMessage } from '../../protocol/messages.js';
import { currencyExponent } from '../../../adapters/kit/money.js';

export interface PriceBounds {
  min?: number;
  max?: number;
  /** One of the store's currencies. */
  currency: string;
}

// BigInt(n), not `1n`: the build targets ES2017, which has no BigInt literals (docs/decisions.md).
const ONE = BigInt(1);
const TEN = BigInt(10);

/** A configured rate (a JSON number) as an exact fraction: 1.08 -> 108/100. */
function fraction(rate: number): { num: bigint; den: bigint } {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(rate));
  if (!match) throw new RangeError(`exchange rate ${rate} is not a positive decimal`);
  const [, whole, decimals = '', exp = '0'] = match;
  const shift = Number(exp) - decimals.length;
  const digits = BigInt(whole! + decimals);
  return shift >= 0 ? { num: digits * TEN ** BigInt(shift), den: ONE } : { num: digits, den: TEN ** BigInt(-shift) };
}

/** `amount` minor units of `from` in minor units of `to`, 1 `from` being `rate` `to`. */
export function convertMinor(amount: number, from: string, to: string, rate: number, rounding: 'down' | 'up'): number {
  const { num, den } = fraction(rate);
  const n = BigInt(amount) * num * TEN ** BigInt(currencyExponent(to));
  const d = den * TEN ** BigInt(currencyExponent(from));
  const result = rounding === 'down' ? n / d : (n + d - ONE) / d;
  return Number(result > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : result);
}

export function priceBounds(
  price: { min?: number; max?: number },
  requested: string | undefined,
  storeCurrencies: readonly string[],
  rates: Readonly<Record<string, number>>,
): { bounds?: PriceBounds; message?: Message } {
  const store = storeCurrencies[0]!;
  const currency = requested ?? store;
  if (storeCurrencies.includes(currency)) return { bounds: { ...price, currency } };
  const rate = rates[currency];
  if (rate === undefined) {
    return {
      message: warningMessage(
        'filter_ignored',
        `filters.price was not applied: prices are in ${storeCurrencies.join(', ')} and this store has no rate to convert from ${currency}`,
        '$.filters.price',
      ),
    };
  }
  const bounds: PriceBounds = {
    ...(price.min !== undefined && { min: convertMinor(price.min, currency, store, rate, 'down') }),
    ...(price.max !== undefined && { max: convertMinor(price.max, currency, store, rate, 'up') }),
    currency: store,
  };
  return {
    bounds,
    message: infoMessage(
      'currency_converted',
      `filters.price was converted from ${currency} to ${store} at 1 ${currency} = ${rate} ${store}; prices are shown in ${store}`,
      '$.filters.price',
    ),
  };
}
