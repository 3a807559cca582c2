/**
 * What the gateway itself knows about an order the backend placed: which checkout produced it
 * and for whom. The backend owns the order; this record decides who may read it (the platform
 * that originated it, or the buyer) and where its webhooks go. Written once, by checkout
 * completion, before the order is announced to anyone.
 */
import type { OperationContext } from '../../operations/context.js';

export interface OrderRecord {
  orderId: string;
  checkoutId: string;
  /** The originating platform's profile URL (PROTO-Agent at completion). */
  profileUrl: string;
  /** `config.webhook_url` of the platform's order capability, when its profile has one. */
  webhookUrl?: string;
  /** The authenticated buyer at completion, for buyer-token access. */
  buyerId?: string;
  /** Epoch ms. */
  placedAt: number;
}

/** Orders outlive carts and checkouts by far; the record lives as long as an order may be read. */
export const ORDER_RECORD_TTL_MS = 400 * 86_400_000;

export const orderRecordKey = (tenantId: string, orderId: string) => `order:${tenantId}:${orderId}`;

export async function saveOrderRecord(ctx: Pick<OperationContext, 'store' | 'tenant'>, record: OrderRecord): Promise<void> {
  await ctx.store.setIfAbsent(orderRecordKey(ctx.tenant.id, record.orderId), record, ORDER_RECORD_TTL_MS);
}

export async function loadOrderRecord(ctx: Pick<OperationContext, 'store' | 'tenant'>, orderId: string): Promise<OrderRecord | null> {
  return (await ctx.store.get<OrderRecord>(orderRecordKey(ctx.tenant.id, orderId)))?.value ?? null;
}
