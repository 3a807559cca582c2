/**
 * What the gateway records once the store placed an order: the order record (who may read the
 * order and where its webhooks go; saving it also announces the order). A webhook URL that can
 * never receive a webhook is not recorded, and the platform hears why while it builds the checkout.
 */
import type { Message } from '../../../schemas/common.js';
import { UnusableWebhookUrl, webhookTarget } from '../../net/webhook-target.js';
import type { OperationContext } from '../../operations/context.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { warningMessage } from '../../protocol/messages.js';
import { saveOrderRecord } from '../order/order-record.js';

/** `config.webhook_url` of the caller's order capability (spec part 2 §2.6) when usable, or why it is not. */
function orderWebhook(ctx: OperationContext): { url?: string; problem?: string } {
  if (!ctx.caller.active.has(CAPABILITY.order)) return {};
  const entries = ctx.caller.profile.proto.capabilities?.[CAPABILITY.order] ?? [];
  const raw = entries.find((entry) => typeof entry.config?.webhook_url === 'string')?.config?.webhook_url as string | undefined;
  if (raw === undefined) return {};
  try {
    webhookTarget(raw, ctx.tenant.policies.allowLoopbackProfiles);
    return { url: raw };
  } catch (error) {
    if (error instanceof UnusableWebhookUrl) return { problem: error.message };
    throw error;
  }
}

/** A warning for open checkouts of a caller whose webhook URL cannot be used. */
export function webhookUrlWarnings(ctx: OperationContext): Message[] {
  const { problem } = orderWebhook(ctx);
  if (problem === undefined) return [];
  const field = `config.webhook_url of ${CAPABILITY.order} in your profile`;
  const content = `Order webhooks will not be sent for orders placed now: ${field} is refused (${problem}).`;
  return [warningMessage('invalid_webhook_url', content)];
}

export async function recordOrder(ctx: OperationContext, checkoutId: string, orderId: string): Promise<void> {
  const { principal } = ctx.caller;
  const webhookUrl = orderWebhook(ctx).url;
  await saveOrderRecord(ctx, {
    orderId,
    checkoutId,
    profileUrl: ctx.caller.profileUrl,
    ...(webhookUrl && { webhookUrl }),
    ...(principal.kind === 'buyer' && { buyerId: principal.buyerId }),
    placedAt: ctx.now(),
  });
}
