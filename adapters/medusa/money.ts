/**
 * Medusa's amounts are numbers in major units, not rounded to the currency's minor unit (a 10 %
 * promotion on 24.99 × 3 leaves a total of 67.473). What is charged is the total rounded once,
 * half up, to the minor unit, as Medusa's payment providers do when they hand the amount to a
 * processor (Stripe's `getSmallestUnit`: Math.round of amount × 10^exponent). Arithmetic on the
 * decimal text, never on floats.
 */
import { currencyExponent } from '../kit/money.js';

/** 67.473 USD -> 6747; 0.125 USD -> 13; 1500 JPY -> 1500. */
export function toMinor(amount: unknown, currency: string): number {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`not an amount: ${JSON.stringify(amount)}`);
  const exponent = currencyExponent(currency.toUpperCase());
  // The shortest decimal text that reads back as this number ("67.473", not 67.47299999...).
  const [mantissa, power = '0'] = Math.abs(value).toString().split('e');
  const [whole = '0', fraction = ''] = mantissa!.split('.');
  const shift = exponent + Number(power);
  const digits = `${whole}${fraction}`;
  const point = whole.length + shift;
  const kept = point <= 0 ? '0' : digits.padEnd(point, '0').slice(0, point);
  const next = point < 0 ? 0 : Number(digits[point] ?? '0');
  const minor = Number(kept) + (next >= 5 ? 1 : 0);
  if (!Number.isSafeInteger(minor)) throw new TypeError(`amount out of range: ${value}`);
  return value < 0 ? -minor : minor;
}
