/** The capabilities a tenant in front of a simulated store offers: all of them (tenant YAML). */
export const ALL_CAPABILITIES_YAML = `capabilities:
  dev.proto.shopping.catalog.search: {}
  dev.proto.shopping.catalog.lookup: {}
  dev.proto.shopping.cart: {}
  dev.proto.shopping.checkout: {}
  dev.proto.shopping.discount: {}
  dev.proto.shopping.fulfillment: {}
  dev.proto.shopping.order: {}
`;
