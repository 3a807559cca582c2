/** Amounts are in minor units of the session currency (0, 2 or 3 decimals: Intl knows which). */
const formats = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: number, currency: string): string {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    formats.set(currency, format);
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
