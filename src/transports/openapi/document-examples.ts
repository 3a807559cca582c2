/**
 * What /docs prefills, so "Try it out" sends a working request as it stands: the demo flower
 * shop's ids in every request body (a walk from search to a completed order), header examples,
 * an Idempotency-Key of each operation's own (one key on two operations is a 409), and the tags'
 * words. Resource ids in paths are random, so they get no example: their description says which
 * answer carries them.
 */
import { CAPABILITIES, CAPABILITY } from '../../protocol/capability-registry.js';
import type { Tenant } from '../../tenancy/tenant.js';

/** The example agent the README serves (`npm run agent -- serve --port 9000`). */
const EXAMPLE_AGENT = 'http://127.0.0.1:9000/.well-known/proto';
const SOME_PLATFORM = 'https://platform.example/.well-known/proto';

const ITEMS = [{ item: { id: 'bouquet_roses' }, quantity: 2 }];
const BUYER = { email: 'ann@example.com' };
const CHICAGO = {
  street_address: '123 Main St',
  address_locality: 'Chicago',
  address_region: 'IL',
  address_country: 'US',
  postal_code: '60601',
};

/** Request bodies by operation. The demo numbers a checkout's methods `shipping_1` and its one group `shipping_1.YWxs`. */
export const REQUEST_EXAMPLES: Record<string, Record<string, unknown>> = {
  search_catalog: { query: 'roses' },
  lookup_catalog: { ids: ['bouquet_roses', 'orchid_white'] },
  get_product: { id: 'bouquet_roses' },
  create_cart: { line_items: ITEMS, discounts: { codes: ['10OFF'] } },
  update_cart: { line_items: [{ item: { id: 'bouquet_roses' }, quantity: 3 }], discounts: { codes: ['10OFF'] } },
  create_checkout: { line_items: ITEMS, buyer: BUYER, fulfillment: { methods: [{ type: 'shipping', destinations: [CHICAGO] }] } },
  update_checkout: {
    line_items: ITEMS,
    buyer: BUYER,
    fulfillment: {
      methods: [
        {
          id: 'shipping_1',
          type: 'shipping',
          destinations: [CHICAGO],
          groups: [{ id: 'shipping_1.YWxs', selected_option_id: 'std-ship' }],
        },
      ],
    },
  },
  complete_checkout: {
    payment: {
      instruments: [{ handler_id: 'sandbox', type: 'card', credential: { type: 'PAYMENT_GATEWAY', token: 'success_token' } }],
    },
  },
};

/** The caller a business's page proposes: the README's example agent where loopback profiles are allowed (the demo). */
export const protoAgentExample = (tenant: Tenant): string =>
  `profile="${tenant.config.policies?.allow_loopback_profiles ? EXAMPLE_AGENT : SOME_PLATFORM}"`;

export const REQUEST_ID_EXAMPLE = 'try-1';
export const idempotencyKeyExample = (operation: string): string => `try-${operation.replaceAll('_', '-')}-1`;

/** Where a path's resource id comes from, by the capability of its operation. */
export const ID_SOURCES: Record<string, string> = {
  [CAPABILITY.cart]: "The cart's `id`, from the create_cart answer.",
  [CAPABILITY.checkout]: "The checkout's `id`, from the create_checkout answer.",
  [CAPABILITY.order]: "The order's id: `order.id` of the complete_checkout answer.",
};

const CAPABILITY_TAGS: Record<string, string> = {
  [CAPABILITY.catalogSearch]: 'Search the catalog by text, filters and context; results are paged.',
  [CAPABILITY.catalogLookup]: 'Look products and variants up by id, and read one product with its options.',
  [CAPABILITY.cart]: 'Build a basket before checkout: lines, discount codes, estimated totals.',
  [CAPABILITY.checkout]: 'A checkout session: buyer, delivery, totals, then payment and the order.',
  [CAPABILITY.order]: 'Orders placed through the gateway, read by the platform that placed them or by the buyer.',
};

/** The document's tags: each capability with what it is for and its spec, then discovery and the other transports. */
export function tagObjects(capabilities: readonly string[]): Array<Record<string, unknown>> {
  return [
    ...capabilities.map((name) => ({
      name,
      description: CAPABILITY_TAGS[name] ?? name,
      ...(name in CAPABILITIES && { externalDocs: { url: CAPABILITIES[name as keyof typeof CAPABILITIES].spec } }),
    })),
    {
      name: 'discovery',
      description: 'The business profile: the protocol versions, services, capabilities and payment handlers it offers.',
    },
    { name: 'transports', description: 'The same operations over MCP and A2A (JSON-RPC 2.0).' },
  ];
}
