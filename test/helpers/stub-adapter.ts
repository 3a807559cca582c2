/** An adapter for pipeline tests that never reaches a backend. */
import type { Adapter } from '../../adapters/contract.js';

const unused = () => Promise.reject(new Error('stub adapter: not used by this test'));

export function stubAdapter(): Adapter {
  return {
    kind: 'stub',
    capabilities: {
      lookupKeys: [],
      customFilters: [],
      currencies: ['USD'],
      quotesShipping: false,
      quotesTax: false,
      pickup: false,
      multiGroup: false,
      fulfillmentDiscovery: false,
      acceptedClaims: [],
      placesOrders: false,
    },
    search: unused,
    lookup: unused,
    pickupLocations: unused,
    discoverFulfillment: unused,
    quote: unused,
    placeOrder: unused,
    findOrderByReference: unused,
    getOrder: unused,
    continueUrl: () => 'https://shop.example/cart',
    verifyWebhook: () => null,
    ping: async () => undefined,
  };
}
