/** How WordPress and WooCommerce write dates, decimals and links in REST answers. */
import { wallClock } from '../site-time.js';
import type { WooStore } from '../store.js';

/** WooCommerce REST: decimal string with the store's decimals ("35.00"); wc_format_decimal with dp. */
export function decimal(amount: number, decimals: number): string {
  const negative = amount < 0;
  const digits = Math.abs(amount)
    .toString()
    .padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** A product price as a merchant typed it: WooCommerce keeps "35" or "26.5", not "35.00". */
export function enteredPrice(amount: number, decimals: number): string {
  const text = decimal(amount, decimals);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** `date_*`: the site's wall clock, no offset (wc_rest_prepare_date_response( $date, false )). */
export const localDate = (store: WooStore, date: Date | null): string | null => (date ? wallClock(date, store.settings.timezone) : null);

/** `date_*_gmt`: UTC, no offset (wc_rest_prepare_date_response( $date )). */
export const gmtDate = (date: Date | null): string | null => (date ? date.toISOString().slice(0, 19) : null);

export function links(home: string, self: string, collection: string, extra: Record<string, string> = {}) {
  const link = (path: string) => [{ href: `${home}/wp-json/${path}` }];
  return {
    self: link(self),
    collection: link(collection),
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, link(v)])),
  };
}
