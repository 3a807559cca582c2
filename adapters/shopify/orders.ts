/**
 * Orders on the Admin API: found by the gateway's reference and read as the contract's snapshot
 * (order-map.ts). An order the gateway placed (a draft order completed paid) is tagged with the
 * reference, and so is its draft, whose `order` is the order even when the order search misses it
 * (a merchant retagged it). An order placed on Shopify's checkout after a handoff carries the
 * reference only as a note attribute, which Shopify's order search cannot filter on: it is found
 * by the cart it was placed from (`cart_token`, the store reference the checkout page named, or
 * the session's cart), else (a session whose cart was replaced) looked for among the newest orders.
 */
import type { OrderLinks, OrderSnapshot } from '../contract.js';
import { readHandle } from './cart-sync.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { cartTokenOf, orderGid, orderIdOf, REFERENCE_ATTRIBUTE, referenceTag } from './ids.js';
import type { MoneyV2 } from './money.js';
import { toOrderSnapshot, type AdminOrder } from './order-map.js';

type Found = { id: string; statusPageUrl: string };
type PlacedOrder = { orderId: string; permalinkUrl?: string };

/** A draft order as the adapter reads it: COMPLETED ones have their `order`. */
export interface Draft {
  id: string;
  status: string;
  totalPriceSet: { presentmentMoney: MoneyV2 };
  order: Found | null;
}

/** The token of the session's Shopify cart (the handle the gateway kept), if it has one. */
const cartOf = (handle: string | undefined) => {
  const cart = readHandle(handle)?.cart;
  return cart && cartTokenOf(cart);
};

const placedOrder = (order: Found): PlacedOrder => ({ orderId: orderIdOf(order.id), permalinkUrl: order.statusPageUrl });

export class ShopifyOrders {
  constructor(private readonly client: ShopifyClient) {}

  /** What the gateway placed for `reference`: its order, else a draft it has not completed yet. */
  async placedFor(reference: string, signal?: AbortSignal): Promise<{ order: PlacedOrder | null; open: Draft | undefined }> {
    const tag = `tag:${JSON.stringify(referenceTag(reference))}`;
    const { orders, draftOrders } = await this.client.admin<{ orders: { nodes: Found[] }; draftOrders: { nodes: Draft[] } }>(
      Q.ORDER_BY_REFERENCE,
      { tag },
      signal,
    );
    const order = orders.nodes[0] ?? draftOrders.nodes.find((d) => d.status === 'COMPLETED' && d.order)?.order;
    return { order: order ? placedOrder(order) : null, open: draftOrders.nodes.find((d) => d.status !== 'COMPLETED') };
  }

  async findOrderByReference(reference: string, signal?: AbortSignal, links?: OrderLinks): Promise<PlacedOrder | null> {
    const { order } = await this.placedFor(reference, signal);
    if (order) return order;
    const cart = links?.storeReference ?? cartOf(links?.handle);
    const fromCart = cart ? await this.placedFromCart(cart, signal) : null;
    if (fromCart) return fromCart;
    type Recent = { orders: { nodes: Array<Found & { customAttributes: Array<{ key: string; value: string | null }> }> } };
    const { orders } = await this.client.admin<Recent>(Q.RECENT_ORDERS, {}, signal);
    const handedOff = orders.nodes.find((o) => o.customAttributes.some((a) => a.key === REFERENCE_ATTRIBUTE && a.value === reference));
    return handedOff ? placedOrder(handedOff) : null;
  }

  /** The order Shopify's checkout placed from the cart with this token, if any. */
  private async placedFromCart(cartToken: string, signal?: AbortSignal): Promise<PlacedOrder | null> {
    type ByCart = { orders: { nodes: Array<Found & { cartToken: string | null }> } };
    const query = `cart_token:${JSON.stringify(cartToken)}`;
    const { orders } = await this.client.admin<ByCart>(Q.ORDER_BY_CART, { query }, signal);
    const order = orders.nodes.find((o) => o.cartToken === cartToken);
    return order ? placedOrder(order) : null;
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    if (!/^\d+$/.test(orderId)) return null;
    const { order } = await this.client.admin<{ order: AdminOrder | null }>(Q.ORDER_QUERY, { id: orderGid(orderId) }, signal);
    return order ? toOrderSnapshot(order) : null;
  }
}
