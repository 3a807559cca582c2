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
      locationStock: false,
      multiGroup: false,
      fulfillmentDiscovery: false,
      rejectionReasons: false,
      acceptedClaims: [],
      finishing: ['gateway_charged', 'handoff'],
    },
    storefrontUrl: 'https://shop.example',
    search: unused,
    lookup: unused,
    pickupLocations: unused,
    quote: unused,
    checkoutUrl: unused,
    placeOrder: unused,
    findOrderByReference: unused,
    getOrder: unused,
    verifyWebhook: () => null,
    ping: async () => undefined,
  };
}
