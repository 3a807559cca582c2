/**
 * Medusa's amounts are numbers in major units, not rounded to the currency's minor unit (a 10 %
 * promotion on 24.99 × 3 leaves a total of 67.473). What is charged is the total rounded once,
 * half up, to the minor unit, as Medusa's payment providers do when they hand the amount to a
 * processor (Stripe's `getSmallestUnit`: Math.round of amount × 10^exponent). Arithmetic on the
 * decimal text, never on floats.
 */
import { roundToMinorUnits } from '../kit/money.js';

/** A number's shortest decimal text, without exponent notation: 67.473 -> "67.473", 1e-7 -> "0.0000001". */
function plainDecimal(value: number): string {
  const [mantissa, power = '0'] = Math.abs(value).toString().split('e');
  const [whole = '0', fraction = ''] = mantissa!.split('.');
  const digits = `${whole}${fraction}`;
  const point = whole.length + Number(power);
  const text = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : `${digits.padEnd(point, '0').slice(0, point)}.${digits.slice(point)}`;
  return value < 0 ? `-${text}` : text;
}

/** 67.473 USD -> 6747; 0.125 USD -> 13; 1500 JPY -> 1500. */
export function toMinor(amount: unknown, currency: string): number {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`not an amount: ${JSON.stringify(amount)}`);
  try {
    return roundToMinorUnits(plainDecimal(value), currency.toUpperCase());
  } catch {
    throw new TypeError(`amount out of range: ${value}`);
  }
}
