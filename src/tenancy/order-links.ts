/**
 * How a store ties its orders to the gateway's checkouts (adapter `capabilities.orderLinks`,
 * default: it keeps the gateway's reference), checked at start-up: a store that keeps neither the
 * gateway's reference nor a store-side reference fails there, naming the file, rather than losing
 * every order placed on its own pages.
 */
import type { AdapterCapabilities, OrderLink } from '../../adapters/contract.js';
import { ConfigError } from '../../adapters/kit/config-error.js';

const orderLinks = (capabilities: Pick<AdapterCapabilities, 'orderLinks'>): readonly OrderLink[] =>
  capabilities.orderLinks ?? ['reference'];

export const keepsReference = (capabilities: Pick<AdapterCapabilities, 'orderLinks'>): boolean =>
  orderLinks(capabilities).includes('reference');

export function checkOrderLinks(capabilities: Pick<AdapterCapabilities, 'orderLinks'>, kind: string, file: string): void {
  if (orderLinks(capabilities).length > 0) return;
  throw new ConfigError(
    `${file}: $.adapter.settings: the ${kind} store keeps neither the gateway's reference nor a store reference with its orders ` +
      '(capabilities.orderLinks is empty), so an order placed on its own pages could never be matched to its checkout',
  );
}
