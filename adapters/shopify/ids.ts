/**
 * Protocol ids of Shopify objects. Catalog ids are Shopify's global ids as they are (they only
 * travel in bodies and round-trip unchanged); order ids are the numeric part of the Order gid,
 * because the protocol puts them in URL paths (`GET /orders/{id}`).
 */
export const orderGid = (orderId: string) => `gid://shopify/Order/${orderId}`;

export function orderIdOf(gid: string): string {
  return gid.slice(gid.lastIndexOf('/') + 1);
}

export const isGid = (type: 'Product' | 'ProductVariant', id: string) => new RegExp(`^gid://shopify/${type}/\\d+$`).test(id);

/** The cart attribute and line attribute that carry the gateway's ids into Shopify's order. */
export const REFERENCE_ATTRIBUTE = '_proto_checkout';
export const LINE_ATTRIBUTE = '_proto_line';
/** Tag of orders placed through draft orders, for finding them by reference. */
export const referenceTag = (reference: string) => `proto-checkout:${reference}`;
