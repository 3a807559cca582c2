/**
 * WooCommerce amounts to the contract's integer minor units. The REST API writes decimal strings
 * ("26.5", "35.00"); the Store API integer strings in its `currency_minor_unit`. The store's
 * own decimals (woocommerce_price_num_decimals) need not be ISO 4217's, so amounts are scaled to
 * the currency's exponent; digits beyond it are rounded half up, as WooCommerce rounds totals.
 * String arithmetic throughout, never floats.
 */
import { currencyExponent } from '../kit/money.js';
import { InvalidAnswerError } from '../contract.js';

/** "26.5" -> 2650 (USD); "" (no price) -> null. */
export function decimalToMinor(value: string, currency: string, what = 'amount'): number | null {
  const text = value.trim();
  if (text === '') return null;
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3]))
    throw new InvalidAnswerError(`the store wrote ${what} as ${JSON.stringify(value)}, not a decimal`);
  const [, sign, whole = '', fraction = ''] = match;
  const exponent = currencyExponent(currency);
  const kept = fraction.padEnd(exponent, '0').slice(0, exponent);
  const roundUp = (fraction[exponent] ?? '0') >= '5';
  const minor = Number(`${whole || '0'}${kept}`) + (roundUp ? 1 : 0);
  if (!Number.isSafeInteger(minor)) throw new InvalidAnswerError(`the store wrote ${what} out of range: ${value}`);
  return sign ? -minor : minor;
}

/** Like decimalToMinor, for amounts that must be there. */
export function requiredMinor(value: string, currency: string, what: string): number {
  const minor = decimalToMinor(value, currency, what);
  if (minor === null) throw new InvalidAnswerError(`the store left ${what} empty`);
  return minor;
}

/** A Store API amount ("1999" with currency_minor_unit 2) in the currency's ISO exponent. */
export function storeMinor(value: string, minorUnit: number, currency: string): number {
  const amount = Number(value);
  const shift = currencyExponent(currency) - minorUnit;
  if (shift >= 0) return amount * 10 ** shift;
  const factor = 10 ** -shift;
  return Math.sign(amount) * Math.floor((Math.abs(amount) + factor / 2) / factor);
}

/** 1999 -> "19.99" with the store's decimals, for REST request fields (prices, shipping totals). */
export function minorToDecimal(amount: number, currency: string, decimals: number): string {
  const exponent = currencyExponent(currency);
  const scaled = decimals >= exponent ? amount * 10 ** (decimals - exponent) : Math.round(amount / 10 ** (exponent - decimals));
  const digits = Math.abs(scaled)
    .toString()
    .padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  return `${scaled < 0 ? '-' : ''}${whole}${decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : ''}`;
}
