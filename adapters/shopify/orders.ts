/**
 * Orders on the Admin API: found by the gateway's reference (the tag of a draft order placed here,
 * else the cart attribute Shopify copied onto an order placed on its checkout) and read as the
 * contract's snapshot (order-map.ts).
 */
import type { OrderSnapshot } from '../contract.js';
import type { ShopifyClient } from './client.js';
import * as Q from './documents.js';
import { orderGid, orderIdOf, REFERENCE_ATTRIBUTE, referenceTag } from './ids.js';
import { toOrderSnapshot, type AdminOrder } from './order-map.js';

type Found = { id: string; statusPageUrl: string; customAttributes?: Array<{ key: string; value: string | null }> };

export class ShopifyOrders {
  constructor(private readonly client: ShopifyClient) {}

  async findOrderByReference(reference: string, signal?: AbortSignal): Promise<{ orderId: string; permalinkUrl?: string } | null> {
    const tag = `tag:${JSON.stringify(referenceTag(reference))}`;
    const { tagged, recent } = await this.client.admin<{ tagged: { nodes: Found[] }; recent: { nodes: Found[] } }>(
      Q.ORDER_BY_REFERENCE,
      { tag },
      signal,
    );
    const order =
      tagged.nodes[0] ?? recent.nodes.find((o) => o.customAttributes?.some((a) => a.key === REFERENCE_ATTRIBUTE && a.value === reference));
    return order ? { orderId: orderIdOf(order.id), permalinkUrl: order.statusPageUrl } : null;
  }

  async getOrder(orderId: string, signal?: AbortSignal): Promise<OrderSnapshot | null> {
    if (!/^\d+$/.test(orderId)) return null;
    const { order } = await this.client.admin<{ order: AdminOrder | null }>(Q.ORDER_QUERY, { id: orderGid(orderId) }, signal);
    return order ? toOrderSnapshot(order) : null;
  }
}
