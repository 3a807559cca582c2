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

/** "19.99" USD -> 1999. Throws on anything that is not a plain decimal or has too many digits. */
export function toMinorUnits(decimal: string, currency: string): number {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!match) throw new Error(`not a decimal amount: ${JSON.stringify(decimal)}`);
  const [, sign, whole, fraction = ''] = match;
  const exponent = currencyExponent(currency);
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > exponent) throw new Error(`${decimal} has more decimals than ${currency} allows`);
  const minor = Number(`${whole}${fraction.padEnd(exponent, '0').slice(0, exponent)}`);
  if (!Number.isSafeInteger(minor)) throw new Error(`${decimal} is out of range`);
  return sign ? -minor : minor;
}

/** 1999 USD -> "19.99". */
export function fromMinorUnits(amount: number, currency: string): string {
  if (!Number.isSafeInteger(amount)) throw new Error(`not an integer amount: ${amount}`);
  const exponent = currencyExponent(currency);
  const digits = Math.abs(amount)
    .toString()
    .padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${amount < 0 ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** 1999 USD -> "$19.99" (en-US), formatted from the exact decimal string, never a float. */
export const formatAmount = (amount: number, currency: string): string =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(fromMinorUnits(amount, currency) as Intl.StringNumericLiteral);
