/**
 * What the gateway records once the store placed an order: the order record (who may read the
 * order and where its webhooks go; saving it also announces the order).
 */
import type { Caller, OperationContext } from '../../operations/context.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { saveOrderRecord } from '../order/order-record.js';

/** `config.webhook_url` of the caller's order capability (spec part 2 §2.6), when its profile has one. */
function orderWebhookUrl(caller: Caller): string | undefined {
  const url = caller.profile.proto.capabilities?.[CAPABILITY.order]?.find((entry) => typeof entry.config?.webhook_url === 'string')?.config?.webhook_url;
  return url as string | undefined;
}

export async function recordOrder(ctx: OperationContext, checkoutId: string, orderId: string): Promise<void> {
  const { principal } = ctx.caller;
  const webhookUrl = orderWebhookUrl(ctx.caller);
  await saveOrderRecord(ctx, {
    orderId,
    checkoutId,
    profileUrl: ctx.caller.profileUrl,
    ...(webhookUrl && { webhookUrl }),
    ...(principal.kind === 'buyer' && { buyerId: principal.buyerId }),
    placedAt: ctx.now(),
  });
}
