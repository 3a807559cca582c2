/**
 * What the gateway records once the store placed an order: the order record (who may read the
 * order and where its webhooks go; saving it also announces the order). Who that is was decided
 * by the platform that completed (or was handed off) the checkout, and is kept with the session
 * (`OrderRecipient`), so a queue job or a backend event can record the order without a caller.
 */
import type { OrderSnapshot } from '../../../adapters/contract.js';
import type { Caller, OperationContext } from '../../operations/context.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { saveOrderRecord } from '../order/order-record.js';

/** Who an order belongs to and where its webhooks go. */
export interface OrderRecipient {
  profileUrl: string;
  webhookUrl?: string;
  buyerId?: string;
}

/** `config.webhook_url` of the caller's order capability (spec part 2 §2.6), when its profile has one. */
function orderWebhookUrl(caller: Caller): string | undefined {
  const url = caller.profile.proto.capabilities?.[CAPABILITY.order]?.find((entry) => typeof entry.config?.webhook_url === 'string')?.config
    ?.webhook_url;
  return url as string | undefined;
}

export function orderRecipient(caller: Caller): OrderRecipient {
  const webhookUrl = orderWebhookUrl(caller);
  return {
    profileUrl: caller.profileUrl,
    ...(webhookUrl && { webhookUrl }),
    ...(caller.principal.kind === 'buyer' && { buyerId: caller.principal.buyerId }),
  };
}

export type RecordContext = Pick<OperationContext, 'store' | 'tenant' | 'now'>;

/** `order`: the snapshot already read (a backend event), so it is not read again. */
export async function recordOrder(
  ctx: RecordContext,
  checkoutId: string,
  orderId: string,
  recipient: OrderRecipient,
  order?: OrderSnapshot,
): Promise<void> {
  await saveOrderRecord(ctx, { orderId, checkoutId, ...recipient, placedAt: ctx.now() }, order);
}
