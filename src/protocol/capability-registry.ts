/**
 * The sanctioned capabilities and services this gateway implements, with their spec and
 * schema URLs. Schema URLs of `dev.proto.*` entities must live on proto.dev (authority binding,
 * spec part 1 §2.1); spec URLs may be anywhere but stay there too.
 */
const SPEC = 'https://proto.dev/specification';
const SCHEMAS = 'https://proto.dev/schemas/shopping';

export const CAPABILITY = {
  catalogSearch: 'dev.proto.shopping.catalog.search',
  catalogLookup: 'dev.proto.shopping.catalog.lookup',
  cart: 'dev.proto.shopping.cart',
  checkout: 'dev.proto.shopping.checkout',
  discount: 'dev.proto.shopping.discount',
  fulfillment: 'dev.proto.shopping.fulfillment',
  order: 'dev.proto.shopping.order',
  identityLinking: 'dev.proto.common.identity_linking',
} as const;

export type CapabilityName = (typeof CAPABILITY)[keyof typeof CAPABILITY];

export interface CapabilityDefinition {
  spec: string;
  schema: string;
  /** Parents of an extension; the extension is pruned when none of them is active. */
  extends?: CapabilityName[];
}

export const CAPABILITIES: Record<CapabilityName, CapabilityDefinition> = {
  [CAPABILITY.catalogSearch]: { spec: `${SPEC}/catalog`, schema: `${SCHEMAS}/catalog_search.json` },
  [CAPABILITY.catalogLookup]: { spec: `${SPEC}/catalog`, schema: `${SCHEMAS}/catalog_lookup.json` },
  [CAPABILITY.cart]: { spec: `${SPEC}/cart`, schema: `${SCHEMAS}/cart.json` },
  [CAPABILITY.checkout]: { spec: `${SPEC}/checkout`, schema: `${SCHEMAS}/checkout.json` },
  [CAPABILITY.discount]: {
    spec: `${SPEC}/discount`,
    schema: `${SCHEMAS}/discount.json`,
    extends: [CAPABILITY.cart, CAPABILITY.checkout],
  },
  [CAPABILITY.fulfillment]: {
    spec: `${SPEC}/fulfillment`,
    schema: `${SCHEMAS}/fulfillment.json`,
    extends: [CAPABILITY.checkout, CAPABILITY.catalogSearch, CAPABILITY.catalogLookup],
  },
  [CAPABILITY.order]: { spec: `${SPEC}/order`, schema: `${SCHEMAS}/order.json` },
  [CAPABILITY.identityLinking]: {
    spec: 'https://proto.dev/specification/identity-linking',
    schema: 'https://proto.dev/schemas/common/identity_linking.json',
  },
};

export const isCapabilityName = (name: string): name is CapabilityName => Object.hasOwn(CAPABILITIES, name);

/** The shopping service and its transport bindings. */
export const SHOPPING_SERVICE = 'dev.proto.shopping';
export const SERVICE_BINDINGS = {
  rest: { spec: `${SPEC}/overview`, schema: 'https://proto.dev/services/shopping/rest.openapi.json' },
  mcp: { spec: `${SPEC}/overview`, schema: 'https://proto.dev/services/shopping/mcp.openrpc.json' },
  embedded: { spec: `${SPEC}/embedded`, schema: 'https://proto.dev/services/shopping/embedded.openrpc.json' },
} as const;

/** The A2A binding (spec part 1 §2.1): its endpoint is the agent card; it names no schema. */
export const A2A_BINDING = { spec: `${SPEC}/checkout-a2a`, extension: 'https://proto.dev/a2a/extensions/shopping' } as const;
