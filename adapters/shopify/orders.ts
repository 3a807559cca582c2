/**
 * Orders on the Admin API: found by the gateway's reference and read as the contract's snapshot
 * (order-map.ts). An order the gateway placed (a draft order completed paid) is tagged with the
 * reference, and so is its draft, whose `order` is the order even when the order search misses it
 * (a merchant retagged it). An order placed on Shopify's checkout after a handoff carries the
 * reference only as a note attribute, which Shopify's order search cannot filter on: it is looked
 * for among the newest orders (its webhooks carry the reference anyway).
 */
import type { OrderSnapshot } from '../contract.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { orderGid, orderIdOf, REFERENCE_ATTRIBUTE, referenceTag } from './ids.js';
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

  async findOrderByReference(reference: string, signal?: AbortSignal): Promise<PlacedOrder | null> {
    const { order } = await this.placedFor(reference, signal);
    if (order) return order;
    type Recent = { orders: { nodes: Array<Found & { customAttributes: Array<{ key: string; value: string | null }> }> } };
    const { orders } = await this.client.admin<Recent>(Q.RECENT_ORDERS, {}, signal);
    const handedOff = orders.nodes.find((o) => o.customAttributes.some((a) => a.key === REFERENCE_ATTRIBUTE && a.value === reference));
    return handedOff ? placedOrder(handedOff) : null;
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    if (!/^\d+$/.test(orderId)) return null;
    const { order } = await this.client.admin<{ order: AdminOrder | null }>(Q.ORDER_QUERY, { id: orderGid(orderId) }, signal);
    return order ? toOrderSnapshot(order) : null;
  }
}
