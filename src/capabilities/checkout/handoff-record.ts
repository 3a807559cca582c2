/**
 * Checkouts handed off to the store's own checkout page (`continue_url` from the adapter's
 * `checkoutUrl`, carrying the checkout id as reference). The record outlives the session: a buyer
 * may pay on the store long after the checkout expired, and the order the store then reports
 * (a backend event or a poll naming the reference) still reaches the platform that handed it off.
 */
import type { OperationContext } from '../context.js';
import type { OrderRecipient } from '../order/order-recipient.js';

export interface HandoffRecord {
  checkoutId: string;
  recipient: OrderRecipient;
  /** Epoch ms of the latest handoff. */
  handedOffAt: number;
}

/** Long enough for a buyer to come back to a store's checkout page (Shopify keeps a cart 10 days). */
export const HANDOFF_TTL_MS = 30 * 86_400_000;

const key = (tenantId: string, checkoutId: string) => `handoff:${tenantId}:${checkoutId}`;

export async function saveHandoff(
  ctx: Pick<OperationContext, 'store' | 'tenant' | 'now'>,
  checkoutId: string,
  recipient: OrderRecipient,
): Promise<void> {
  const record: HandoffRecord = { checkoutId, recipient, handedOffAt: ctx.now() };
  await ctx.store.set(key(ctx.tenant.id, checkoutId), record, HANDOFF_TTL_MS);
}

export async function loadHandoff(ctx: Pick<OperationContext, 'store' | 'tenant'>, checkoutId: string): Promise<HandoffRecord | null> {
  return (await ctx.store.get<HandoffRecord>(key(ctx.tenant.id, checkoutId)))?.value ?? null;
}
