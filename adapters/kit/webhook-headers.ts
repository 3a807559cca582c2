/** Reading a webhook's headers in one place, so no verifier misses the name's case or an array. */
import type { WebhookHeaders } from '../contract.js';

/** A header's value by its name in any case (the first when it was sent twice), or undefined. */
export function header(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
