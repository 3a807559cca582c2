/**
 * What the gateway records once the store placed an order: the order record (who may read the
 * order and where its webhooks go; saving it also announces the order). Who that is was decided
 * by the platform that completed (or was handed off) the checkout, and is kept with the session
 * (`OrderRecipient`), so a queue job or a backend event can record the order without a caller.
 * A webhook URL that can never receive a webhook is not recorded, and the platform hears why
 * while it builds the checkout.
 */
import type { OrderSnapshot } from '../../../../adapters/contract.js';
import type { Message } from '../../../../schemas/common.js';
import { UnusableWebhookUrl, webhookTarget } from '../../../net/webhook-target.js';
import type { OperationContext } from '../../context.js';
import { CAPABILITY } from '../../../protocol/capability-registry.js';
import { warningMessage } from '../../../protocol/messages.js';
import { saveOrderRecord } from '../../order/order-record.js';

/** Who an order belongs to and where its webhooks go. */
export interface OrderRecipient {
  profileUrl: string;
  webhookUrl?: string;
  buyerId?: string;
}

type CallerContext = Pick<OperationContext, 'caller' | 'tenant'>;

/** `config.webhook_url` of the caller's order capability (spec part 2 §2.6) when usable, or why it is not. */
function orderWebhook(ctx: CallerContext): { url?: string; problem?: string } {
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
export function webhookUrlWarnings(ctx: CallerContext): Message[] {
  const { problem } = orderWebhook(ctx);
  if (problem === undefined) return [];
  const field = `config.webhook_url of ${CAPABILITY.order} in your profile`;
  const content = `Order webhooks will not be sent for orders placed now: ${field} is refused (${problem}).`;
  return [warningMessage('invalid_webhook_url', content)];
}

export function orderRecipient(ctx: CallerContext): OrderRecipient {
  const webhookUrl = orderWebhook(ctx).url;
  return {
    profileUrl: ctx.caller.profileUrl,
    ...(webhookUrl && { webhookUrl }),
    ...(ctx.caller.principal.kind === 'buyer' && { buyerId: ctx.caller.principal.buyerId }),
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
