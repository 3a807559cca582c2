/**
 * Protocol ids of Shopify objects. Catalog ids are Shopify's global ids as they are (they only
 * travel in bodies and round-trip unchanged); order ids are the numeric part of the Order gid,
 * because the protocol puts them in URL paths (`GET /orders/{id}`).
 */
import { createHash } from 'node:crypto';

export const orderGid = (orderId: string) => `gid://shopify/Order/${orderId}`;

export function orderIdOf(gid: string): string {
  return gid.slice(gid.lastIndexOf('/') + 1);
}

/**
 * The token of a Storefront cart id (`gid://shopify/Cart/<token>?key=…`, changelog "Storefront API
 * Cart ID now includes key param"): what Shopify keeps as the order's `cartToken` / `cart_token`.
 * The token itself is opaque (changelog "Changes to Cart token format", 2025): nothing is read in it.
 */
export function cartTokenOf(cartId: string): string {
  const path = cartId.split('?')[0]!;
  return path.slice(path.lastIndexOf('/') + 1);
}

export const isGid = (type: 'Product' | 'ProductVariant', id: string) => new RegExp(`^gid://shopify/${type}/\\d+$`).test(id);

/** The cart attribute and line attribute that carry the gateway's ids into Shopify's order. */
export const REFERENCE_ATTRIBUTE = '_proto_checkout';
export const LINE_ATTRIBUTE = '_proto_line';
const TAG_PREFIX = 'proto:';
/** Shopify keeps order tags to 40 characters (docs/adapters/shopify.md). */
const MAX_TAG = 40;

/**
 * Tag of orders placed through draft orders, for finding them by reference: the reference itself
 * when it fits (a gateway checkout id does), else a digest of it.
 */
export function referenceTag(reference: string): string {
  const plain = `${TAG_PREFIX}${reference}`;
  if (plain.length <= MAX_TAG) return plain;
  return `${TAG_PREFIX}${createHash('sha256')
    .update(reference)
    .digest('hex')
    .slice(0, MAX_TAG - TAG_PREFIX.length)}`;
}
