/**
 * WooCommerce amounts to the contract's integer minor units. The REST API writes decimal strings
 * ("26.5", "35.00"); the Store API integer strings in its `currency_minor_unit`. The store's
 * own decimals (woocommerce_price_num_decimals) need not be ISO 4217's, so amounts are scaled to
 * the currency's exponent; digits beyond it are rounded half up, as WooCommerce rounds totals
 * (the arithmetic is the kit's, adapters/kit/money.ts). What is WooCommerce's here: an empty
 * price means "no price", and a malformed amount is the store's invalid answer.
 */
import { InvalidAnswerError } from '../contract.js';
import { currencyExponent, fromMinorUnits, rescaleMinorUnits, roundToMinorUnits } from '../kit/money.js';

/** "26.5" -> 2650 (USD); "" (no price) -> null. */
export function decimalToMinor(value: string, currency: string, what = 'amount'): number | null {
  if (value.trim() === '') return null;
  try {
    return roundToMinorUnits(value, currency);
  } catch (error) {
    throw new InvalidAnswerError(`the store wrote ${what} as ${JSON.stringify(value)}: ${(error as Error).message}`);
  }
}

/** Like decimalToMinor, for amounts that must be there. */
export function requiredMinor(value: string, currency: string, what: string): number {
  const minor = decimalToMinor(value, currency, what);
  if (minor === null) throw new InvalidAnswerError(`the store left ${what} empty`);
  return minor;
}

/** A Store API amount ("1999" with currency_minor_unit 2) in the currency's ISO exponent. */
export const storeMinor = (value: string, minorUnit: number, currency: string): number =>
  rescaleMinorUnits(Number(value), minorUnit, currencyExponent(currency));

/** 1999 -> "19.99" with the store's decimals, for REST request fields (prices, shipping totals). */
export const minorToDecimal = (amount: number, currency: string, decimals: number): string => fromMinorUnits(amount, currency, decimals);
