/**
 * What the gateway itself knows about an order the backend placed: which checkout produced it
 * and for whom. The backend owns the order; this record decides who may read it (the platform
 * that originated it, or the buyer) and where its webhooks go. Written once, by checkout
 * completion or by the reconciliation of a handed-off checkout's order, together with the
 * order's one "Order created" webhook event.
 */
import { BackendError, type OrderSnapshot } from '../../../adapters/contract.js';
import type { OperationContext } from '../context.js';
import { createdEventId } from './order-event.js';
import type { CheckoutLineRef } from './checkout-lines.js';
import type { OrderRecipient } from './order-recipient.js';
import { enqueueOrderEvent } from './outbox.js';

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
  /** The checkout's lines, to show its line ids on the order of a store that keeps only its own (checkout-lines.ts). */
  lines?: CheckoutLineRef[];
}

/** Orders outlive carts and checkouts by far; the record lives as long as an order may be read. */
const ORDER_RECORD_TTL_MS = 400 * 86_400_000;

const orderRecordKey = (tenantId: string, orderId: string) => `order:${tenantId}:${orderId}`;

/**
 * Saves a new order's record and queues its Order created event (the order as the store has it
 * now), once per order however often it is called. The event is queued before the record is
 * written: a crash in between leaves no record, so the checkout's retry queues the event again
 * under the same id (a no-op while it is queued) instead of losing it.
 */
export async function saveOrderRecord(
  ctx: Pick<OperationContext, 'store' | 'tenant'>,
  record: OrderRecord,
  known?: OrderSnapshot,
): Promise<void> {
  const key = orderRecordKey(ctx.tenant.id, record.orderId);
  if (await ctx.store.get(key)) return;
  if (record.webhookUrl) {
    const order = known ?? (await ctx.tenant.adapter.getOrder(record.orderId));
    if (!order) throw new BackendError(`the store does not return order ${record.orderId} it has just placed`, true);
    await enqueueOrderEvent(ctx.store, ctx.tenant, record, order, {
      id: createdEventId(ctx.tenant.id, record.orderId),
      kind: 'order_created',
      occurredAt: record.placedAt,
    });
  }
  await ctx.store.setIfAbsent(key, record, ORDER_RECORD_TTL_MS);
}

/** Which checkout an order came from: its id and its lines. */
export interface OrderOrigin {
  checkoutId: string;
  lines?: CheckoutLineRef[];
}

/**
 * The record of the order the store placed for `origin`'s checkout, for `recipient` (kept with
 * the checkout, so no caller is needed). `order`: the snapshot already read (a backend event), so
 * it is not read again.
 */
export async function recordOrder(
  ctx: Pick<OperationContext, 'store' | 'tenant' | 'now'>,
  origin: OrderOrigin,
  orderId: string,
  recipient: OrderRecipient,
  order?: OrderSnapshot,
): Promise<void> {
  const lines = origin.lines?.length ? { lines: origin.lines } : {};
  await saveOrderRecord(ctx, { orderId, checkoutId: origin.checkoutId, ...recipient, placedAt: ctx.now(), ...lines }, order);
}

export async function loadOrderRecord(ctx: Pick<OperationContext, 'store' | 'tenant'>, orderId: string): Promise<OrderRecord | null> {
  return (await ctx.store.get<OrderRecord>(orderRecordKey(ctx.tenant.id, orderId)))?.value ?? null;
}
