/**
 * How a REST tenant's store ties an order to its checkout (`capabilities.order_links`): it keeps
 * the gateway's reference (the default), and/or it names its own cart or payment id
 * (`storeReference` in its checkout_url and place_order answers) and reports it with the order. A
 * tenant whose store keeps neither fails at start-up, naming the file and the setting.
 */
import type { OrderLink } from '../contract.js';
import { ConfigError } from '../kit/config-error.js';
import type { RestSettings } from './settings.js';

export function orderLinks(settings: RestSettings, where: string): OrderLink[] {
  const links = settings.capabilities?.order_links ?? ['reference'];
  if (links.length > 0) return links;
  throw new ConfigError(
    `${where}: $.adapter.settings.capabilities.order_links is empty: the store would keep neither the gateway's reference ` +
      'nor a reference of its own (storeReference) with its orders, so no order placed on its pages could be matched to its checkout',
  );
}
