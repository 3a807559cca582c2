/**
 * Money as integer minor units. Backends speak decimal strings ("19.99"); conversion is string
 * arithmetic with the currency's ISO 4217 exponent, never floating point.
 */
const exponents = new Map<string, number>();

/** ISO 4217 minor-unit exponent (USD 2, JPY 0, KWD 3), from the platform's ICU data. */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    exponents.set(currency, exponent);
  }
  return exponent;
}

/** Where the run of ASCII digits from `start` ends. */
function digitsEnd(text: string, start: number): number {
  let at = start;
  while (at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) at++;
  return at;
}

/**
 * "19.99" USD -> 1999. Throws on anything that is not a plain decimal (-?\d+(\.\d+)?) or has too
 * many digits. Read character by character: stores' mappings call it for every amount of an
 * answer, and a regular expression's match and the strings cut from it cost twice as much.
 */
export function toMinorUnits(decimal: string, currency: string): number {
  const text = decimal.trim();
  const start = text.charCodeAt(0) === 45 ? 1 : 0; // "-"
  const point = digitsEnd(text, start);
  const end = text.charCodeAt(point) === 46 ? digitsEnd(text, point + 1) : point; // "."
  if (point === start || end === point + 1 || end !== text.length) throw new Error(`not a decimal amount: ${JSON.stringify(decimal)}`);
  const fraction = text.slice(point + 1, end);
  const exponent = currencyExponent(currency);
  let significant = fraction.length;
  while (significant > 0 && fraction.charCodeAt(significant - 1) === 48) significant--;
  if (significant > exponent) throw new Error(`${decimal} has more decimals than ${currency} allows`);
  const minor = Number(`${text.slice(start, point)}${fraction.padEnd(exponent, '0').slice(0, exponent)}`);
  if (!Number.isSafeInteger(minor)) throw new Error(`${decimal} is out of range`);
  return start === 1 ? -minor : minor;
}

/**
 * 1999 USD -> "19.99"; with `decimals` (a store that writes other than ISO 4217's digits):
 * 1999 USD, 3 -> "19.990", 1999 USD, 1 -> "20.0" (rescaled, half away from zero).
 */
export function fromMinorUnits(amount: number, currency: string, decimals = currencyExponent(currency)): string {
  if (!Number.isSafeInteger(amount)) throw new Error(`not an integer amount: ${amount}`);
  const scaled = rescaleMinorUnits(amount, currencyExponent(currency), decimals);
  const digits = Math.abs(scaled)
    .toString()
    .padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${scaled < 0 ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

/**
 * "26.505" USD -> 2651: for stores whose amounts carry more digits than the currency has (a
 * computed total, a store set to more decimals). Digits beyond the exponent round half away from
 * zero, as PHP's round() and the payment processors do. "5." and ".5" are decimals too.
 */
export function roundToMinorUnits(decimal: string, currency: string): number {
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(decimal.trim());
  if (!match || (!match[2] && !match[3])) throw new Error(`not a decimal amount: ${JSON.stringify(decimal)}`);
  const [, sign, whole = '', fraction = ''] = match;
  const exponent = currencyExponent(currency);
  const kept = fraction.padEnd(exponent, '0').slice(0, exponent);
  const minor = Number(`${whole || '0'}${kept}`) + ((fraction[exponent] ?? '0') >= '5' ? 1 : 0);
  if (!Number.isSafeInteger(minor)) throw new Error(`${decimal} is out of range`);
  return sign && minor !== 0 ? -minor : minor;
}

/** An integer amount at one decimal exponent at another: 1999 (2) -> 19990 (3); 1995 (2) -> 200 (1), half away from zero. */
export function rescaleMinorUnits(amount: number, from: number, to: number): number {
  if (to >= from) return amount * 10 ** (to - from);
  const factor = 10 ** (from - to);
  return Math.sign(amount) * Math.floor((Math.abs(amount) + factor / 2) / factor);
}

/** 1999 USD -> "$19.99" (en-US), formatted from the exact decimal string, never a float. */
export const formatAmount = (amount: number, currency: string): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(fromMinorUnits(amount, currency) as Intl.StringNumericLiteral);
