/**
 * Money in the mappings: `$money(value[, currency])` turns a store amount into minor units,
 * `$storeMoney(amount[, currency])` turns minor units into the store's form. The store writes
 * either decimal strings with the currency's exponent ("35.00" USD, "3500" JPY, "1.250" KWD) or
 * minor-unit integers; conversion is exact string arithmetic (adapters/kit/money.ts), never floats.
 */
import { currencyExponent, fromMinorUnits, toMinorUnits } from '../kit/money.js';

export type MoneyFormat = 'decimal' | 'minor';
/** `half_up`: decimals past the currency's exponent are rounded once (stores that keep amounts unrounded). */
export type MoneyRounding = 'exact' | 'half_up';

/** Plain functions (no `this`): the adapter hands them to its JSONata bindings. */
export interface MoneyFunctions {
  money: (value: unknown, currency?: string) => number | undefined;
  storeMoney: (amount: unknown, currency?: string) => string | number | undefined;
}

/** A JSON number written by a store as a decimal ("35.5" parsed to 35.5) back to its digits. */
function decimalText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value) && !/e/i.test(String(value))) return String(value);
  throw new Error(`expected a decimal amount, got ${typeof value}`);
}

/** "67.473" USD -> 6747, "0.125" -> 13, "-0.125" -> -13: half away from zero, on the digits, never floats. */
function roundedMinorUnits(decimal: string, currency: string): number {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  const exponent = currencyExponent(currency);
  if (!match || (match[3] ?? '').length <= exponent) return toMinorUnits(decimal, currency);
  const [, sign, whole, fraction = ''] = match;
  const minor = Number(`${whole}${fraction.slice(0, exponent)}`) + (Number(fraction[exponent]) >= 5 ? 1 : 0);
  if (!Number.isSafeInteger(minor)) throw new Error(`${decimal} is out of range`);
  return sign && minor !== 0 ? -minor : minor;
}

/** A JSON number in exponent form (1e-7) as plain digits, for rounding. */
const plainDigits = (value: unknown): unknown =>
  typeof value === 'number' && /e/i.test(String(value)) && Math.abs(value) < 1e21 ? value.toFixed(20) : value;

export function moneyFunctions(format: MoneyFormat, defaultCurrency: string, rounding: MoneyRounding = 'exact'): MoneyFunctions {
  return {
    money(value, currency = defaultCurrency) {
      if (value === undefined || value === null) return undefined;
      if (format === 'decimal' && rounding === 'half_up') return roundedMinorUnits(decimalText(plainDigits(value)), currency);
      if (format === 'decimal') return toMinorUnits(decimalText(value), currency);
      const amount = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
      if (typeof amount !== 'number' || !Number.isSafeInteger(amount))
        throw new Error(`expected an amount in minor units, got ${JSON.stringify(value)}`);
      return amount;
    },
    storeMoney(amount, currency = defaultCurrency) {
      if (amount === undefined || amount === null) return undefined;
      if (typeof amount !== 'number' || !Number.isSafeInteger(amount))
        throw new Error(`expected an integer amount in minor units, got ${JSON.stringify(amount)}`);
      return format === 'decimal' ? fromMinorUnits(amount, currency) : amount;
    },
  };
}
