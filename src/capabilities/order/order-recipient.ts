/**
 * Who an order belongs to and where its webhooks go (the order record's `OrderRecipient`). The
 * platform that completes a checkout, or has it handed off to the store's page, decides it; the
 * checkout keeps it (its completion, its handoff record), so a queue job or a backend event can
 * record the order without a caller (order-record.ts `recordOrder`). A webhook URL that can never
 * receive a webhook is not recorded, and the platform hears why on every open checkout.
 */
import type { Message } from '../../../schemas/common.js';
import { UnusableWebhookUrl, webhookTarget } from '../../net/webhook-target.js';
import type { OperationContext } from '../context.js';
import { CAPABILITY } from '../../protocol/capability-registry.js';
import { warningMessage } from '../../protocol/messages.js';

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
